import ArgumentParser
import Census
import NielsenAppApi
