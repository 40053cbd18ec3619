/// Hash indexes over a collection's match keys, so each lookup costs the same whatever the collection's size:
/// candidates come only from shared UIDs, emails, phones and names, never from comparing every pair.
public struct ContactIndex: Sendable {
    /// The keys of each indexed card, by position.
    public private(set) var keys: [MatchKeys] = []
    private var byUID: [String: [Int]] = [:]
    private var byEmail: [String: [Int]] = [:]
    private var byPhone: [PhoneKey: [Int]] = [:]
    private var byName: [String: [Int]] = [:]

    /// An empty index.
    public init() {}

    /// Indexes `keys` in order.
    public init(_ keys: [MatchKeys]) {
        self.keys.reserveCapacity(keys.count)
        for k in keys { insert(k) }
    }

    /// Adds one card; its position is `keys.count - 1` afterwards.
    public mutating func insert(_ k: MatchKeys) {
        let position = keys.count
        keys.append(k)
        add(position, for: k)
    }

    private mutating func add(_ position: Int, for k: MatchKeys) {
        // Positions only grow, so a card's repeated key is always the list's last entry.
        func append<K: Hashable>(_ key: K, _ map: inout [K: [Int]]) {
            if map[key]?.last != position { map[key, default: []].append(position) }
        }
        if let uid = k.uid { append(uid, &byUID) }
        for e in k.emails { append(e, &byEmail) }
        for p in k.phones { append(p.key, &byPhone) }
        for n in Self.nameKeys(k.name) { append(n, &byName) }
        if let fn = k.formattedName { append("fn|" + fn, &byName) }
    }

    /// A name is indexed under its family name with the given name's nickname root, and with its initial, so
    /// nicknames and initials meet; swapped given and family names meet under the swapped key.
    static func nameKeys(_ name: PersonName?) -> [String] {
        guard let name, !name.family.isEmpty, !name.given.isEmpty else { return [] }
        return [name.family + "|" + name.givenRoot, name.family + "|" + String(name.given.prefix(1)),
                name.given + "|" + Nicknames.root(name.family)]
    }

    /// How many indexed cards carry this email or phone (a family address, a switchboard).
    func cardCount(email: String) -> Int { byEmail[email]?.count ?? 0 }
    func cardCount(phone: PhoneKey) -> Int { byPhone[phone]?.count ?? 0 }

    /// Positions of the cards that share at least one key with `k`, each once, in index order.
    public func candidates(for k: MatchKeys) -> [Int] {
        var found: [Int] = []
        var seen = Set<Int>()
        func collect(_ list: [Int]?) {
            guard let list else { return }
            for p in list where seen.insert(p).inserted { found.append(p) }
        }
        if let uid = k.uid { collect(byUID[uid]) }
        for e in k.emails { collect(byEmail[e]) }
        for p in k.phones { collect(byPhone[p.key]) }
        if let name = k.name, !name.family.isEmpty, !name.given.isEmpty {
            collect(byName[name.family + "|" + name.givenRoot])
            collect(byName[name.family + "|" + String(name.given.prefix(1))])
        }
        if let fn = k.formattedName { collect(byName["fn|" + fn]) }
        return found.sorted()
    }
}
