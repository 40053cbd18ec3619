<?php
// Times sabre/vobject on one vCard file.
//
// usage: php sabre_bench.php FILE parse|parse-write
//
// parse        split FILE with Sabre\VObject\Splitter\VCard; each getNext() parses
//              one card fully (2.x's Reader builds every component, property and
//              parameter eagerly); the property count is read to be sure.
// parse-write  the same, and serialize() every card, adding up the lengths.
// Prints one JSON line: {"bytes":N,"cards":N,"seconds":S}. seconds covers the
// loop from opening the file to the last card; PHP start-up and loading the
// library are excluded. A card that fails to parse stops the run (exit 1).

require __DIR__ . '/sabre_load.php';
sabre_load();

if ($argc !== 3 || !in_array($argv[2], ['parse', 'parse-write'], true)) {
    fwrite(STDERR, "usage: php sabre_bench.php FILE parse|parse-write\n");
    exit(64);
}
[, $path, $mode] = $argv;
$write = $mode === 'parse-write';
$bytes = filesize($path);
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
$splitter = new \Sabre\VObject\Splitter\VCard($handle);
try {
    while ($vcard = $splitter->getNext()) {
        $cards++;
        $properties += count($vcard->children());
        if ($write) {
            $written += strlen($vcard->serialize());
        }
    }
} catch (\Throwable $error) {
    fwrite(STDERR, "sabre_bench: card " . ($cards + 1) . ": " . $error->getMessage() . "\n");
    exit(1);
}
fclose($handle);
$seconds = (hrtime(true) - $start) / 1e9;

if ($properties === 0 || ($write && $written === 0)) {
    fwrite(STDERR, "sabre_bench: nothing parsed\n");
    exit(1);
}
echo json_encode(['bytes' => $bytes, 'cards' => $cards, 'seconds' => round($seconds, 6)]), "\n";
