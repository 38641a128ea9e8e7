import Database

/// `ShopServer [--port N] [--database PATH] [--wiring weavedi|manual]`.
struct ServerArguments {
    enum Wiring: String { case weavedi, manual }

    var port = 8080
    var databasePath = AppDatabase.defaultPath
    var wiring = Wiring.weavedi

    static let usage = """
        usage: ShopServer [--port N] [--database PATH] [--wiring weavedi|manual]
          --port N          port on 127.0.0.1 (default 8080; 0 picks a free one)
          --database PATH   SQLite file (default .weavedi-example/shop.sqlite)
          --wiring MODE     weavedi (default): the shop wired by WeaveDI, every route;
                            manual: GET /orders/{id} only, wired by hand (the load test's baseline)
        """

    struct Invalid: Error, CustomStringConvertible { let description: String }

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { throw Invalid(description: "\(flag) needs a value") }
            switch flag {
            case "--port":
                guard let port = Int(value), (0...65535).contains(port) else {
                    throw Invalid(description: "bad port \(value)")
                }
                self.port = port
            case "--database": databasePath = value
            case "--wiring":
                guard let wiring = Wiring(rawValue: value) else { throw Invalid(description: "bad wiring \(value)") }
                self.wiring = wiring
            default: throw Invalid(description: "unknown option \(flag)")
            }
        }
    }
}
