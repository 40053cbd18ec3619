/// `bytes` handed out `size` at a time and then nothing, as a file is read: what the streamed readers (`more`)
/// are given, so a test cuts every string, escape and bracket one way or another.
public func pieces(of bytes: [UInt8], size: Int) -> () throws -> [UInt8] {
    var offset = 0
    return {
        let end = min(bytes.count, offset + size)
        defer { offset = end }
        return Array(bytes[offset..<end])
    }
}
