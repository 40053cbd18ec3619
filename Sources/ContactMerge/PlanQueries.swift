import ContactMatching

extension MergePlan {
    /// Whether an existing card of a merge has `uid`, compared as matching compares UIDs (a UUID in any case,
    /// with or without `urn:uuid:`): a UID made for an added card must not be one of them.
    public func existingCardHas(uid: String) -> Bool {
        guard !isDedupe, let key = MatchKeys.uidKey(uid) else { return false }
        return matcher.index.contains(uid: key)
    }
}
