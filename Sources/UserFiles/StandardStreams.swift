#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Descriptors 0, 1 and 2 kept taken for the whole run. A stream the process was started without (`vcf convert -
/// -o out.vcf <&-`) left its number free, and the next file opened got it: the output's temporary file became
/// "standard input", was read as an empty input, and the run succeeded with an empty file. Such a stream is
/// given `/dev/null` opened the other way, so reading or writing it fails as a closed one does and no file of
/// ours can take its number.
package enum StandardStreams {
    /// Whether descriptor 0 was closed when the process started (then `-` as an input is refused).
    nonisolated(unsafe) package private(set) static var inputWasClosed = false

    /// Takes every closed one of descriptors 0, 1 and 2. Called first thing by the executable, before any
    /// thread starts and any file is opened.
    package static func reserve() {
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            // The lowest free number is this one, as every lower one is open by now.
            let taken = open("/dev/null", (descriptor == 0 ? O_WRONLY : O_RDONLY) | O_CLOEXEC)
            if taken != descriptor && taken >= 0 { _ = close(taken) }
            if descriptor == 0 { inputWasClosed = true }
        }
    }
}
