import Foundation
import Hummingbird
import NIOCore
import OrderFeature
import PaymentFeature
import SharedModels
import UserFeature

/// An error the shop answers with: an HTTP status and a JSON body `{"error": …, "status": …}`.
public struct ShopError: HTTPResponseError {
    public let status: HTTPResponse.Status
    public let message: String
    /// Extra headers (`Allow` on a 405).
    public let headers: HTTPFields

    public init(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    private struct Body: Encodable {
        let error: String
        let status: Int
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let data = try JSONEncoder().encode(Body(error: message, status: status.code))
        var headers = self.headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The status and message for any error a route or Hummingbird throws.
    public static func from(_ error: any Error) -> ShopError {
        switch error {
        case let error as ShopError: return error
        case let error as UserFeatureError: return ShopError(.unprocessableContent, error.description)
        case let error as OrderFeatureError:
            if case .unknownUser = error { return ShopError(.notFound, error.description) }
            return ShopError(.unprocessableContent, error.description)
        case let error as PaymentFeatureError:
            if case .unknownOrder = error { return ShopError(.notFound, error.description) }
            return ShopError(.conflict, error.description)
        case let error as StorageError:
            if case .notFound = error { return ShopError(.notFound, error.description) }
            return ShopError(.conflict, error.description)
        case is DecodingError: return ShopError(.badRequest, "The request body is not the JSON this route expects.")
        case is NIOTooManyBytesError: return ShopError(.contentTooLarge, "The request body is larger than 64 KiB.")
        case let error as HTTPError:
            switch error.status {
            case .contentTooLarge: return ShopError(.contentTooLarge, "The request body is larger than 64 KiB.")
            case .notFound: return ShopError(.notFound, "No such route.")
            case .badRequest: return ShopError(.badRequest, error.body ?? "The request body is not valid JSON.")
            default: return ShopError(error.status, error.body ?? error.status.reasonPhrase)
            }
        default: return ShopError(.internalServerError, "The shop could not handle this request.")
        }
    }
}

/// Turns every error into a ``ShopError`` (JSON, proper status); nothing a request does crashes
/// the server or answers with an empty 500.
public struct ShopErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch {
            let answer = ShopError.from(error)
            if answer.status == .internalServerError {
                context.logger.error("request failed: \(error)")
            }
            throw answer
        }
    }
}
