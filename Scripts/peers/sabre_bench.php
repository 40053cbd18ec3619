<?php
// Times sabre/vobject on one vCard file.
//
// usage: php sabre_bench.php FILE parse|parse-write
//        php sabre_bench.php FILE write OUT
//
// parse        split FILE with Sabre\VObject\Splitter\VCard; each getNext() parses
//              one card fully (2.x's Reader builds every component, property and
//              parameter eagerly); the property count is read to be sure.
// parse-write  the same, and serialize() every card, adding up the lengths.
// write OUT    the same, and write every serialized card to OUT (buffered by PHP's
//              stream layer, closed at the end; not synced): the job
//              `vcf convert FILE -o OUT` does. The book is vCard 3.0, and sabre
//              2.x writes a card in the version it was read in.
// Prints one JSON line: {"bytes":N,"cards":N,"written":N,"seconds":S}. seconds covers
// the loop from opening the file to the last card (closing OUT); PHP start-up and
// loading the library are excluded. A card that fails to parse stops the run (exit 1);
// a file that cannot be read or written exits 2; bad usage 64.

require __DIR__ . '/sabre_load.php';
sabre_load();

$usage = $argc === 3 ? in_array($argv[2], ['parse', 'parse-write'], true) : ($argc === 4 && $argv[2] === 'write');
if (!$usage) {
    fwrite(STDERR, "usage: php sabre_bench.php FILE parse|parse-write\n       php sabre_bench.php FILE write OUT\n");
    exit(64);
}
$path = $argv[1];
$mode = $argv[2];
$write = $mode !== 'parse';
$bytes = @filesize($path);
if ($bytes === false) {
    fwrite(STDERR, "sabre_bench: cannot read $path\n");
    exit(2);
}

// Warm the autoloader outside the timed loop.
class_exists('Sabre\\VObject\\Reader');
class_exists('Sabre\\VObject\\Component\\VCard');

$cards = 0;
$properties = 0;
$written = 0;
$start = hrtime(true);
$handle = fopen($path, 'rb');
$out = null;
if ($mode === 'write' && ($out = @fopen($argv[3], 'wb')) === false) {
    fwrite(STDERR, "sabre_bench: cannot write {$argv[3]}\n");
    exit(2);
}
$splitter = new \Sabre\VObject\Splitter\VCard($handle);
try {
    while ($vcard = $splitter->getNext()) {
        $cards++;
        $properties += count($vcard->children());
        if ($write) {
            $text = $vcard->serialize();
            $written += strlen($text);
            if ($out !== null && fwrite($out, $text) !== strlen($text)) {
                fwrite(STDERR, "sabre_bench: cannot write {$argv[3]}\n");
                exit(2);
            }
        }
    }
} catch (\Throwable $error) {
    fwrite(STDERR, "sabre_bench: card " . ($cards + 1) . ": " . $error->getMessage() . "\n");
    exit(1);
}
fclose($handle);
if ($out !== null && !fclose($out)) {
    fwrite(STDERR, "sabre_bench: cannot write {$argv[3]}\n");
    exit(2);
}
$seconds = (hrtime(true) - $start) / 1e9;

if ($properties === 0 || ($write && $written === 0)) {
    fwrite(STDERR, "sabre_bench: nothing parsed\n");
    exit(1);
}
echo json_encode(['bytes' => $bytes, 'cards' => $cards, 'written' => $written, 'seconds' => round($seconds, 6)]), "\n";
