// Times ez-vcard (Java) on one vCard file.
//
// usage: java -cp /usr/share/java/ez-vcard.jar:/usr/share/java/vinnie.jar:CLASSES EzVcardBench FILE parse|parse-write
//        java -cp ...:CLASSES EzVcardBench FILE write OUT
//        java -cp /usr/share/java/ez-vcard.jar:/usr/share/java/vinnie.jar Scripts/peers/EzVcardBench.java FILE MODE
//        (the second form compiles in memory at every start: fine by hand, but Scripts/bench-suite.sh compiles
//        once so the javac classes stay out of the measured process's memory)
//
// parse        read FILE as UTF-8 with ezvcard.io.text.VCardReader, card by card (readNext(), the streaming form
//              of Ezvcard.parse(file).all()); every card is parsed fully by ez-vcard's scribes (vinnie lexes)
//              and its property count is read so the work cannot be skipped.
// parse-write  the same, and write every card as vCard 3.0 with one VCardWriter (PRODID not added, lines folded
//              as ez-vcard does) into a UTF-8 stream that only counts the bytes.
// write OUT    the same, into OUT (UTF-8, buffered, closed at the end; not synced): the job
//              `vcf convert FILE -o OUT` does. No warm-up pass: this mode is timed as a whole process, JVM
//              start-up and JIT included, as a user runs it.
//
// Prints one JSON line: {"bytes":N,"cards":N,"written":N,"seconds":S,"warmup_bytes":W,"warmup_seconds":T}.
// seconds covers one pass from opening FILE to the last card (and the final flush when writing), with the
// JIT already warm: before it, an untimed pass runs the same mode over the first W bytes of FILE
// (EZVCARD_WARMUP_BYTES, default 4000000; 0 skips it and gives a cold-JIT figure), and warmup_seconds is how
// long that pass took. JVM start-up and class loading are excluded, as PHP's and Python's start-up are for the
// other peers (which have no JIT to warm). A card that fails to parse stops the run (exit 1); a file that cannot
// be read or written exits 2; bad usage 64. `EzVcardBench --version` prints the versions of ez-vcard, vinnie and the JVM.

import ezvcard.Ezvcard;
import ezvcard.VCard;
import ezvcard.VCardVersion;
import ezvcard.io.text.VCardReader;
import ezvcard.io.text.VCardWriter;
import java.io.BufferedReader;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Properties;

public final class EzVcardBench {
    private static final long DEFAULT_WARMUP_BYTES = 4_000_000L;

    /** What one pass saw. */
    private static final class Pass {
        long cards;
        long properties;
        long written;
        double seconds;
    }

    /** Counts the bytes read through it, so the warm-up pass can stop after its share of the file. */
    private static final class CountingInput extends FilterInputStream {
        long count;

        CountingInput(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) count++;
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            if (n > 0) count += n;
            return n;
        }
    }

    /** Discards what is written and counts it. */
    private static final class CountingOutput extends OutputStream {
        long count;

        @Override
        public void write(int b) {
            count++;
        }

        @Override
        public void write(byte[] buffer, int offset, int length) {
            count += length;
        }
    }

    /** Counts what is written through it. */
    private static final class CountingFilter extends OutputStream {
        final OutputStream out;
        long count;

        CountingFilter(OutputStream out) {
            this.out = out;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            count++;
        }

        @Override
        public void write(byte[] buffer, int offset, int length) throws IOException {
            out.write(buffer, offset, length);
            count += length;
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }

    /**
     * Reads FILE card by card (stopping once `limit` bytes have been read, if limit is positive), writing every card
     * into a counting stream (write) or into `target` as well (when not null).
     */
    private static Pass run(File file, boolean write, File target, long limit) throws IOException {
        Pass pass = new Pass();
        long start = System.nanoTime();
        CountingInput input = new CountingInput(new FileInputStream(file));
        CountingFilter sink = new CountingFilter(target == null ? new CountingOutput() : new FileOutputStream(target));
        try (VCardReader reader = new VCardReader(
                new BufferedReader(new InputStreamReader(input, StandardCharsets.UTF_8), 1 << 16))) {
            VCardWriter writer = null;
            if (write) {
                writer = new VCardWriter(new OutputStreamWriter(sink, StandardCharsets.UTF_8), VCardVersion.V3_0);
                writer.setAddProdId(false);
            }
            VCard card;
            while ((card = reader.readNext()) != null) {
                pass.cards++;
                pass.properties += card.getProperties().size();
                if (writer != null) writer.write(card);
                if (limit > 0 && input.count >= limit) break;
            }
            if (writer != null) writer.close(); // flushes the writer's buffer and closes OUT
        } catch (RuntimeException error) {
            throw new IllegalStateException("card " + (pass.cards + 1) + ": " + error, error);
        }
        pass.written = sink.count;
        pass.seconds = (System.nanoTime() - start) / 1e9;
        return pass;
    }

    /** The version a jar's Maven metadata gives, or "?". */
    private static String mavenVersion(String group, String artifact) {
        String path = "/META-INF/maven/" + group + "/" + artifact + "/pom.properties";
        try (InputStream in = EzVcardBench.class.getResourceAsStream(path)) {
            if (in == null) return "?";
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "?");
        } catch (IOException error) {
            return "?";
        }
    }

    public static void main(String[] args) {
        if (args.length == 1 && args[0].equals("--version")) {
            System.out.println("ez-vcard " + Ezvcard.VERSION + ", vinnie "
                    + mavenVersion("com.github.mangstadt", "vinnie") + ", Java " + System.getProperty("java.vm.version"));
            return;
        }
        boolean writeFile = args.length == 3 && args[1].equals("write");
        if (!writeFile && !(args.length == 2 && (args[1].equals("parse") || args[1].equals("parse-write")))) {
            System.err.println("usage: java EzVcardBench FILE parse|parse-write\n       java EzVcardBench FILE write OUT");
            System.exit(64);
        }
        File file = new File(args[0]);
        File target = writeFile ? new File(args[2]) : null;
        boolean write = writeFile || args[1].equals("parse-write");
        if (!file.isFile() || !file.canRead()) {
            System.err.println("EzVcardBench: cannot read " + args[0]);
            System.exit(2);
        }
        long warmupBytes = DEFAULT_WARMUP_BYTES;
        String setting = System.getenv("EZVCARD_WARMUP_BYTES");
        if (setting != null && !setting.isEmpty()) {
            try {
                warmupBytes = Long.parseLong(setting);
            } catch (NumberFormatException error) {
                warmupBytes = -1;
            }
            if (warmupBytes < 0) {
                System.err.println("EzVcardBench: EZVCARD_WARMUP_BYTES must be a whole number of bytes");
                System.exit(64);
            }
        }
        try {
            double warmupSeconds = 0;
            if (writeFile) {
                warmupBytes = 0; // a whole process, as a user runs it
            }
            if (warmupBytes > 0) {
                warmupSeconds = run(file, write, null, warmupBytes).seconds;
                System.gc(); // start the timed pass without the warm-up's garbage
            }
            Pass pass = run(file, write, target, 0);
            if (pass.properties == 0 || (write && pass.written == 0)) {
                System.err.println("EzVcardBench: nothing parsed");
                System.exit(1);
            }
            System.out.printf(Locale.ROOT,
                    "{\"bytes\":%d,\"cards\":%d,\"written\":%d,\"seconds\":%.6f,\"warmup_bytes\":%d,\"warmup_seconds\":%.6f}%n",
                    file.length(), pass.cards, pass.written, pass.seconds, warmupBytes, warmupSeconds);
        } catch (IOException error) {
            System.err.println("EzVcardBench: " + error.getMessage());
            System.exit(2);
        } catch (RuntimeException error) {
            System.err.println("EzVcardBench: " + error.getMessage());
            System.exit(1);
        }
    }
}
