import CensusStore
import Hummingbird

/// Runs the read routes behind it on the census's ``ReadThreads``, answer and all: the handler
/// turns what it returns into a response (encoding it) before this returns.
struct ReadThreadsMiddleware<Context: RequestContext>: RouterMiddleware {
    let threads: ReadThreads

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await threads.run { try await next(request, context) }
    }
}
