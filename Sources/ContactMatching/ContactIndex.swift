import Utilities

/// One key a card is found under: its kind and a hash of its text (see `MatchKeys.indexKeys`).
package struct IndexKey: Hashable, Sendable {
    /// What the key is made of; part of the hash too, so an email and a name never meet.
    public enum Kind: UInt8, Sendable {
        case uid, email, phone, name, nameAndOrganization, formattedName, phonetic, birthday, household
    }

    /// The kind.
    public var kind: Kind
    /// A hash of the kind and the normalised text.
    public var hash: Int

    /// The key for the phone `number` (see `KeyHashing`).
    public init(_ kind: Kind, _ number: PhoneKey) {
        var state = KeyHashing.State(kind: kind.rawValue)
        state.combine(number.number)
        // A number without an extension and one with an empty extension are different keys.
        if let ext = number.ext {
            state.combine(ext)
        } else {
            state.combine(-1)
        }
        self.kind = kind
        hash = state.finalize()
    }

    /// The key for the number `value` of `kind` (a birthday's date).
    public init(_ kind: Kind, _ value: Int) {
        var state = KeyHashing.State(kind: kind.rawValue)
        state.combine(value)
        self.kind = kind
        hash = state.finalize()
    }

    /// The key for `text` of `kind` (see `KeyHashing`).
    public init(_ kind: Kind, _ text: String) {
        var state = KeyHashing.State(kind: kind.rawValue)
        state.combine(text)
        self.kind = kind
        hash = state.finalize()
    }

    /// The key for several texts taken together (a family and a given name), without joining them into one.
    public init(_ kind: Kind, parts first: String, _ second: String, _ third: String? = nil) {
        var state = KeyHashing.State(kind: kind.rawValue)
        // Each text ends with its count, so ("ab", "c") and ("a", "bc") differ.
        state.combine(first)
        state.combine(second)
        if let third { state.combine(third) }
        self.kind = kind
        hash = state.finalize()
    }
}

/// Sorted key-position pairs over a collection's match keys, so each lookup is a binary search whatever the
/// collection's size: candidates come only from shared UIDs, emails, phones and names, never from comparing every
/// pair. Hashes stand for the keys: a rare collision only adds a candidate, which the decision then examines.
public struct ContactIndex: Sendable {
    /// The keys of each indexed card, by position, made into a list at each call.
    public var keys: [MatchKeys] { lent.map { $0.takeUnretainedValue() } }
    /// The keys by position, not retained: `owners` holds them. The index of a pass's groups shares its book's
    /// keys and replaces a few; a list of references copied retained every card's keys (a cache miss each) and
    /// released them all again when the pass was over, which was most of the cost of each pass's index.
    @usableFromInline let lent: [Unmanaged<MatchKeys>]
    /// The lists that hold the keys `lent` lends.
    private let owners: [[MatchKeys]]

    /// How many cards are indexed.
    package var count: Int { lent.count }

    /// The keys of the card at `position`.
    package func key(at position: Int) -> MatchKeys { lent[position].takeUnretainedValue() }

    /// Calls `body` with the keys of the card at `position`, lent rather than retained (see `Array.withElement`).
    @inlinable
    package func withKey<R>(at position: Int, _ body: (MatchKeys) throws -> R) rethrows -> R {
        try lent[position]._withUnsafeGuaranteedRef(body)
    }
    /// Each entry is a key's hash in the high bits and a position in the low `positionBits`: one integer sorts
    /// several times faster than a pair (a large book has over a million entries), and the hash bits given up
    /// only make a rare collision, which adds a candidate.
    private let entries: [Int]
    private let positionBits: Int
    /// Where each bucket of `entries` starts (and, one further, where the last ends). A bucket is the entries
    /// whose top `bucketBits` are the same, so a lookup searches a bucket of about eight entries: a binary search
    /// over a large book's million entries missed the cache at nearly every step, and deciding a dedupe's pairs
    /// looks keys up several million times.
    private let bucketStarts: [Int]
    private let bucketBits: Int
    /// For an index made by `updating`: whether each position's entries in `entries` no longer count (the card is
    /// left out, or has new keys, whose entries are in `extra`); nil for an index built afresh. The settling of a
    /// merge or dedupe makes an index of the groups at every pass, and rebuilding a large book's million entries
    /// for the few groups that changed took most of a pass, on one processor.
    private let gone: [Bool]?
    /// The entries of the cards `updating` gave new keys, sorted, and their buckets (as `bucketStarts`).
    private let extra: [Int]
    private let extraStarts: [Int]
    private let extraBits: Int

    /// Indexes `keys` in order.
    public init(_ keys: [MatchKeys]) {
        let positionBits = max(1, Int.bitWidth - keys.count.leadingZeroBitCount)
        let hashMask = ~((1 << positionBits) - 1)
        // Halves gathered and sorted on two processors, then merged: a merge or dedupe waits for the index of its
        // whole book before it can match anything.
        let half = keys.count / 2
        let ranges = keys.count >= 8_192 ? [0..<half, half..<keys.count] : [0..<keys.count]
        let sorted: [[Int]] = Concurrently.map(ranges, chunk: 1) { range in
            var entries: [Int] = []
            entries.reserveCapacity(keys[range].reduce(0) { $0 + $1.indexKeys.count })
            for position in range {
                for key in keys[position].indexKeys { entries.append(key.hash & hashMask | position) }
            }
            RadixSort.sort(&entries)
            return entries
        }
        let entries = sorted.count == 1 ? sorted[0] : Self.merged(sorted[0], sorted[1])
        self.init(
            lent: keys.map(Unmanaged.passUnretained), owners: [keys], entries: entries, positionBits: positionBits)
    }

    /// Two sorted lists as one.
    private static func merged(_ a: [Int], _ b: [Int]) -> [Int] {
        var out: [Int] = []
        out.reserveCapacity(a.count + b.count)
        var j = 0
        for x in a {
            while j < b.count && b[j] < x {
                out.append(b[j])
                j += 1
            }
            out.append(x)
        }
        out.append(contentsOf: b[j...])
        return out
    }

    /// The index of this index's cards followed by `other`'s, at positions after them: what indexing both lists
    /// of keys afresh gives, made from the two sorted lists (a merge indexes its book, then the book and the
    /// incoming cards together, and sorting a million entries again took longer than the rest).
    package func appending(_ other: ContactIndex) -> ContactIndex {
        let count = lent.count + other.lent.count
        let positionBits = max(1, Int.bitWidth - count.leadingZeroBitCount)
        // This index's entries keep their positions only when no more bits are needed to hold the new ones, and
        // the other's need at least as many hash bits as they kept.
        precondition(gone == nil && other.gone == nil, "an updated index is not appended to")
        guard positionBits == self.positionBits, other.positionBits <= positionBits else {
            return ContactIndex(keys + other.keys)
        }
        let hashMask = ~((1 << positionBits) - 1)
        let otherPositions = (1 << other.positionBits) - 1
        var added = other.entries.map { $0 & hashMask | ($0 & otherPositions) + lent.count }
        RadixSort.sort(&added)
        return ContactIndex(
            lent: lent + other.lent, owners: owners + other.owners, entries: Self.merged(entries, added),
            positionBits: positionBits)
    }

    /// The index with the cards at the positions of `replaced` given new keys and the cards at `removed` left
    /// out (they keep their positions, with no key): the same as indexing the changed collection afresh, at a
    /// fraction of the cost when few cards change, as when groups of a large book are looked up again.
    package func updating(_ replaced: [Int: MatchKeys], removing removed: some Sequence<Int>) -> ContactIndex {
        // The entries stay as they are; the cards that changed are marked, and their new keys' entries kept apart.
        var gone = self.gone ?? [Bool](repeating: false, count: lent.count)
        // The cards that change now: an index updated before keeps the new keys of the cards that do not.
        var changed = self.gone == nil ? [] : [Bool](repeating: false, count: lent.count)
        for p in removed {
            gone[p] = true
            if !changed.isEmpty { changed[p] = true }
        }
        var lent = self.lent
        var added: [Int] = []
        let hashMask = ~((1 << positionBits) - 1)
        for (p, k) in replaced {
            gone[p] = true
            if !changed.isEmpty { changed[p] = true }
            lent[p] = Unmanaged.passUnretained(k)
            for key in k.indexKeys { added.append(key.hash & hashMask | p) }
        }
        if !changed.isEmpty { added += extra.filter { !changed[position($0)] } }
        RadixSort.sort(&added)
        return ContactIndex(
            lent: lent, owners: owners + [Array(replaced.values)], entries: entries, positionBits: positionBits,
            bucketStarts: bucketStarts, bucketBits: bucketBits, gone: gone, extra: added)
    }

    private init(
        lent: [Unmanaged<MatchKeys>], owners: [[MatchKeys]], entries: [Int], positionBits: Int, bucketStarts: [Int],
        bucketBits: Int, gone: [Bool], extra: [Int]
    ) {
        self.lent = lent
        self.owners = owners
        self.entries = entries
        self.positionBits = positionBits
        self.bucketStarts = bucketStarts
        self.bucketBits = bucketBits
        self.gone = gone
        self.extra = extra
        (extraStarts, extraBits) = Self.directory(of: extra, positionBits: positionBits)
    }

    private init(lent: [Unmanaged<MatchKeys>], owners: [[MatchKeys]], entries: [Int], positionBits: Int) {
        self.lent = lent
        self.owners = owners
        self.entries = entries
        self.positionBits = positionBits
        (bucketStarts, bucketBits) = Self.directory(of: entries, positionBits: positionBits)
        gone = nil
        extra = []
        (extraStarts, extraBits) = ([0, 0], 0)
    }

    /// Where each bucket of the sorted `entries` starts (and, one further, where the last ends), and how many top
    /// bits make a bucket: about eight entries a bucket, and never a bucket that splits one key's entries (they
    /// differ only in the position bits).
    private static func directory(of entries: [Int], positionBits: Int) -> (starts: [Int], bits: Int) {
        let bits = min(max(0, Int.bitWidth - entries.count.leadingZeroBitCount - 3), 20, Int.bitWidth - positionBits)
        var starts = [Int](repeating: entries.count, count: (1 << bits) + 1)
        starts.withUnsafeMutableBufferPointer { starts in
            entries.withUnsafeBufferPointer { entries in
                var next = 0
                for (i, entry) in entries.enumerated() {
                    let bucket = Self.bucket(of: entry, bits: bits)
                    while next <= bucket {
                        starts[next] = i
                        next += 1
                    }
                }
            }
        }
        return (starts, bits)
    }

    /// The bucket of an entry or key: its top `bits` in the order entries are sorted in (signed).
    @inline(__always) private static func bucket(of entry: Int, bits: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(entry)) ^ (1 << 63)) >> UInt64(Int.bitWidth - bits))
    }

    /// A name on more cards than this is too common to suggest a duplicate by itself (a book with dozens of
    /// "Maria Garcia"s); an email or phone on more than `identifierCap` cards is a switchboard or a placeholder.
    /// Skipping them keeps each lookup's cost bounded; cards that share one also share a rarer key when they
    /// are the same person, and the identical-name rule is served by the name-and-organisation key.
    public static let nameCap = 16, identifierCap = 64
    /// A Soundex-and-initial or birthday block on more cards than this proposes no candidates: such keys are
    /// coarse by design (they must survive a typo), so only a small block is worth comparing pair by pair.
    public static let blockCap = 48

    /// The entries under `hash`.
    private func range(of hash: Int) -> Range<Int> {
        let hashMask = ~((1 << positionBits) - 1)
        let bucket = Self.bucket(of: hash & hashMask, bits: bucketBits)
        return range(of: hash, in: bucketStarts[bucket]..<bucketStarts[bucket + 1])
    }

    /// The entries under `hash` within its bucket's entries, `bucket`.
    private func range(of hash: Int, in bucket: Range<Int>) -> Range<Int> {
        let hashMask = ~((1 << positionBits) - 1)
        let key = hash & hashMask
        let bucketEnd = bucket.upperBound
        var low = bucket.lowerBound
        var high = bucketEnd
        while low < high {
            let mid = (low + high) / 2
            if entries[mid] < key { low = mid + 1 } else { high = mid }
        }
        // The end by binary search too: a key on half the book must not be walked at every lookup.
        var end = low
        high = bucketEnd
        while end < high {
            let mid = (end + high) / 2
            if entries[mid] & hashMask == key { end = mid + 1 } else { high = mid }
        }
        return low..<end
    }

    private func position(_ entry: Int) -> Int { entry & ((1 << positionBits) - 1) }

    /// The entries of `extra` under `hash`.
    private func extraRange(of hash: Int) -> Range<Int> {
        let hashMask = ~((1 << positionBits) - 1)
        let key = hash & hashMask
        let bucket = Self.bucket(of: key, bits: extraBits)
        var low = extraStarts[bucket]
        let bucketEnd = extraStarts[bucket + 1]
        while low < bucketEnd && extra[low] < key { low += 1 }
        var end = low
        while end < bucketEnd && extra[end] & hashMask == key { end += 1 }
        return low..<end
    }

    /// Calls `body` with the position of each card under `hash`, in ascending order, until it returns false.
    private func forEachPosition(of hash: Int, _ body: (Int) -> Bool) {
        let range = range(of: hash)
        guard let gone else {
            for i in range where !body(position(entries[i])) { return }
            return
        }
        // The entries that still count and the new ones, each in ascending order of position: merged.
        let added = extraRange(of: hash)
        var j = added.lowerBound
        for i in range {
            let p = position(entries[i])
            guard !gone[p] else { continue }
            while j < added.upperBound && position(extra[j]) < p {
                guard body(position(extra[j])) else { return }
                j += 1
            }
            guard body(p) else { return }
        }
        while j < added.upperBound {
            guard body(position(extra[j])) else { return }
            j += 1
        }
    }

    /// How many cards are under `hash`, or some number above `limit` when more than `limit` are.
    private func count(of hash: Int, upTo limit: Int = .max) -> Int {
        let range = range(of: hash)
        guard let gone else { return range.count }
        return counted(range, gone, limit: limit) + extraRange(of: hash).count
    }

    /// How many of the entries of `range` still count, or some number above `limit` when more than `limit` do.
    @inline(__always) private func counted(_ range: Range<Int>, _ gone: [Bool], limit: Int) -> Int {
        var count = 0
        entries.withUnsafeBufferPointer { entries in
            gone.withUnsafeBufferPointer { gone in
                let mask = (1 << positionBits) - 1
                for i in range where !gone[entries[i] & mask] {
                    count += 1
                    if count > limit { return }
                }
            }
        }
        return count
    }

    /// Whether an indexed card has the UID key `uid` (see `MatchKeys.uidKey`): found through the index, not by
    /// reading every card's keys.
    public func contains(uid: String) -> Bool {
        var found = false
        forEachPosition(of: IndexKey(.uid, uid).hash) { p in
            found = key(at: p).uid == uid
            return !found
        }
        return found
    }

    /// How many indexed cards carry this email or phone (a family address, a switchboard).
    public func cardCount(email: String) -> Int { count(of: IndexKey(.email, email).hash) }
    /// How many indexed cards carry `key` (or a key the index cannot tell from it).
    package func cardCount(_ key: IndexKey) -> Int { count(of: key.hash) }

    /// `cardCount(key)` when it is at most `limit`, else some number above `limit`: all that deciding by a cap
    /// asks, found without counting every card of a common key in an updated index.
    package func cardCount(_ key: IndexKey, upTo limit: Int) -> Int { count(of: key.hash, upTo: limit) }

    /// Calls `body` with the keys of each indexed card carrying `key` (as `cardCount` counts them), lent, until it
    /// returns false.
    package func forEachCard(carrying key: IndexKey, _ body: (MatchKeys) -> Bool) {
        forEachPosition(of: key.hash) { withKey(at: $0, body) }
    }

    /// The most cards one key of `kind` may bring as candidates; a larger block is skipped (and counted).
    package static func cap(_ kind: IndexKey.Kind) -> Int {
        switch kind {
        // A UID on more cards than this is an exporter's placeholder, not a card's identity: every pair of a
        // thousand cards with one UID made a dedupe quadratic in candidates and cubic in grouping.
        case .uid: identifierCap
        // A name with its organisation is kept whole unless it is absurdly common: the identical-name rule needs it.
        case .nameAndOrganization: 4 * identifierCap
        case .email, .phone: identifierCap
        case .name, .formattedName, .household: nameCap
        case .phonetic, .birthday: blockCap
        }
    }

    /// Positions of the cards that share at least one key with `k`, each once, in index order.
    public func candidates(for k: MatchKeys) -> [Int] {
        var capped = BlockingTally()
        // Nothing reads the keys skipped: an updated index need not count a skipped key's cards exactly.
        if gone != nil {
            var allCapped = false
            return updatedCandidates(for: k, below: Int.max, capped: &capped, allCapped: &allCapped, tallied: false)
        }
        return candidates(for: k, capped: &capped)
    }

    /// The same, counting in `capped` the keys skipped because too many cards share them.
    public func candidates(for k: MatchKeys, capped: inout BlockingTally) -> [Int] {
        candidates(for: k, below: Int.max, capped: &capped)
    }

    /// The candidates at positions below `limit` (a dedupe decides each pair once, from its later card), with
    /// every skipped key counted in `capped` as `candidates(for:capped:)` counts it.
    package func candidates(for k: MatchKeys, below limit: Int, capped: inout BlockingTally) -> [Int] {
        var allCapped = false
        return candidates(for: k, below: limit, capped: &capped, allCapped: &allCapped)
    }

    /// The same, setting `allCapped` to whether every key of `k` but its UID was skipped (and it has one): such a
    /// card meets no card by those keys, not even its copies (which an import may have given other UIDs).
    package func candidates(
        for k: MatchKeys, below limit: Int, capped: inout BlockingTally, allCapped: inout Bool
    ) -> [Int] {
        if gone != nil {
            return updatedCandidates(for: k, below: limit, capped: &capped, allCapped: &allCapped, tallied: true)
        }
        let keys = k.indexKeys
        // Keys other than the UID kept, and skipped.
        var (uncapped, skipped) = (0, 0)
        // Every key's entries are found first, so the list is sized once for all of them: sized for the first key
        // alone, it grew two or three times for a typical card of a large book.
        var found: [Int] = withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: keys.count) { ranges in
            // Every key's bucket is read before any is searched: a large book's index is far larger than the
            // cache, and the buckets' loads, independent of each other, then wait for memory together rather
            // than one after another (the lookups of a dedupe waited on memory most of their time).
            var touched = 0
            for (n, key) in keys.enumerated() {
                let bucket = Self.bucket(of: key.hash & ~((1 << positionBits) - 1), bits: bucketBits)
                let start = bucketStarts[bucket]
                let end = bucketStarts[bucket + 1]
                ranges.initializeElement(at: n, to: start..<end)
            }
            for n in 0..<keys.count where !ranges[n].isEmpty {
                // The entry a search of the bucket reads first.
                touched &+= entries[(ranges[n].lowerBound + ranges[n].upperBound) / 2]
            }
            var total = 0
            for (n, key) in keys.enumerated() {
                let range = range(of: key.hash, in: ranges[n])
                ranges[n] = range
                if range.count <= Self.cap(key.kind) { total += range.count }
            }
            var found: [Int] = []
            // (Reading `touched` keeps its loads from being left out; at worst it reserves one place more.)
            found.reserveCapacity(total + (touched == Int.min ? 1 : 0))
            for (n, key) in keys.enumerated() {
                let range = ranges[n]
                guard range.count <= Self.cap(key.kind) else {
                    capped.add(key, cards: range.count)
                    if key.kind != .uid { skipped += 1 }
                    continue
                }
                if key.kind != .uid { uncapped += 1 }
                // A key's entries differ only in their position bits, so they come in ascending order of position.
                for i in range {
                    let p = position(entries[i])
                    if p >= limit { break }
                    found.append(p)
                }
            }
            return found
        }
        allCapped = uncapped == 0 && skipped > 0
        Self.sortOnce(&found)
        return found
    }

    /// Sorts `found`, then keeps each position once: cheaper than checking every position against those found
    /// before.
    private static func sortOnce(_ found: inout [Int]) {
        found.sort()
        var kept = 0
        for p in found where kept == 0 || found[kept - 1] != p {
            found[kept] = p
            kept += 1
        }
        found.removeLast(found.count - kept)
    }

    /// `candidates(for:below:capped:allCapped:)` for an index made by `updating`, with the same caps on the cards
    /// that count under each key. Unless `tallied`, a key is known to be skipped once more cards than its cap are
    /// found under it: a common name's thousand entries are not walked for each group looked up.
    private func updatedCandidates(
        for k: MatchKeys, below limit: Int, capped: inout BlockingTally, allCapped: inout Bool, tallied: Bool
    ) -> [Int] {
        guard let gone else { return [] }
        var (uncapped, skipped) = (0, 0)
        var found: [Int] = []
        for key in k.indexKeys {
            let range = range(of: key.hash)
            let added = extraRange(of: key.hash)
            let count = counted(range, gone, limit: tallied ? .max : Self.cap(key.kind)) + added.count
            guard count <= Self.cap(key.kind) else {
                capped.add(key, cards: count)
                if key.kind != .uid { skipped += 1 }
                continue
            }
            if key.kind != .uid { uncapped += 1 }
            for i in range {
                let p = position(entries[i])
                if p >= limit { break }
                if !gone[p] { found.append(p) }
            }
            for i in added {
                let p = position(extra[i])
                if p >= limit { break }
                found.append(p)
            }
        }
        allCapped = uncapped == 0 && skipped > 0
        Self.sortOnce(&found)
        return found
    }
}

/// The blocking keys left out because too many cards share them (a very common name, a placeholder number):
/// cards that share only such keys are not compared, which keeps the work linear in the book's size.
public struct BlockingTally: Sendable, Equatable {
    /// The distinct keys skipped, by kind.
    package private(set) var keys: [IndexKey.Kind: Set<Int>] = [:]
    /// The most cards one skipped key was on.
    public private(set) var largest = 0

    /// An empty tally.
    public init() {}

    mutating func add(_ key: IndexKey, cards: Int) {
        keys[key.kind, default: []].insert(key.hash)
        largest = max(largest, cards)
    }

    /// Adds another tally's keys.
    public mutating func formUnion(_ other: BlockingTally) {
        for (kind, hashes) in other.keys { keys[kind, default: []].formUnion(hashes) }
        largest = max(largest, other.largest)
    }

    /// How many distinct keys were skipped.
    public var count: Int { keys.values.reduce(0) { $0 + $1.count } }

    /// The count of skipped keys by kind name (`name`, `birthday`...), for reports.
    public var countsByKind: [String: Int] {
        Dictionary(uniqueKeysWithValues: keys.map { ($0.key.name, $0.value.count) })
    }
}

extension IndexKey.Kind {
    /// What the key is, for reports.
    public var name: String {
        switch self {
        case .uid: "uid"
        case .email: "email"
        case .phone: "phone"
        case .name: "name"
        case .nameAndOrganization: "name and organisation"
        case .formattedName: "formatted name"
        case .phonetic: "soundex and initial"
        case .birthday: "birthday"
        case .household: "postal code and house number"
        }
    }
}
