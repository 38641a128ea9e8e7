import Database
import Synchronization
import WeaveDI

/// One request's unit of work on the shop database: request-scoped, so each request gets its own.
///
/// Writes go to the database at once (each repository call is its own SQLite transaction, as in
/// the App); the unit of work records how to undo each one. When the request's scope ends,
/// ``dispose(reason:)`` commits (`.completed`: forgets the record) or rolls back (`.failed`,
/// `.cancelled`: undoes the request's writes, newest first, in one transaction). A payment whose
/// later step fails therefore leaves neither the payment row nor the order marked paid.
public final class ShopUnitOfWork: AsyncDisposable {
    private let database: AppDatabase
    private let undo = Mutex<[Compensation]>([])
    private let outcome = Mutex<DisposalReason?>(nil)

    /// A unit of work on `database`.
    public init(database: AppDatabase) { self.database = database }

    /// Records how to undo a write this request made.
    func recordUndo(_ step: Compensation) {
        undo.withLock { $0.append(step) }
    }

    /// How the unit of work ended, once it has: `.completed` (committed) or why it rolled back.
    public var endedWith: DisposalReason? { outcome.withLock { $0 } }

    /// Commits on `.completed`, rolls the request's writes back otherwise.
    public func dispose(reason: DisposalReason) async {
        let steps = undo.withLock { steps in
            defer { steps = [] }
            return steps
        }
        if reason != .completed {
            // Rolling back is best effort once the request is over: there is no one left to tell.
            try? database.compensate(steps.reversed())
        }
        outcome.withLock { $0 = reason }
    }
}
