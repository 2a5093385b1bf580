import Hummingbird
import SQLiteKit
import PostgresKit
