<?php
// What sabre/vobject (2.1, Debian's php-sabre-vobject) sees in vCard files: one JSON line per file.
//
// usage: php sabre_view.php FILE...
//
// Each file is split with Sabre\VObject\Splitter\VCard, as a CardDAV server built on sabre does with an
// upload; every property of every card becomes an entry {"n", "g", "v", "p"} (see consumer-view.sh).
// N, ORG, ADR and CATEGORIES give their parts (getParts), joined with ";" (CATEGORIES with ","); other
// values are sabre's value string; a value sabre marks ENCODING=b or BASE64 is base64-decoded (as any
// application using sabre 2.1 does itself) and shown as its size and hash. A card that fails to parse ends the file with "error" (the splitter
// cannot resynchronise); cards read before it are kept.

require __DIR__ . '/../peers/sabre_load.php';
sabre_load();

// The format the bytes' signature names (the same test in every consumer's script).
function sabre_magic(string $d): string
{
    if (strncmp($d, "\xFF\xD8\xFF", 3) === 0) return 'jpeg';
    if (strncmp($d, "\x89PNG", 4) === 0) return 'png';
    if (strncmp($d, 'GIF8', 4) === 0) return 'gif';
    if (strncmp($d, 'RIFF', 4) === 0 && substr($d, 8, 4) === 'WEBP') return 'webp';
    if (substr($d, 4, 4) === 'ftyp' && in_array(substr($d, 8, 4), ['heic', 'heix', 'mif1', 'msf1'], true)) return 'heic';
    if (strncmp($d, 'BM', 2) === 0) return 'bmp';
    return '?';
}

function sabre_entries($component): array
{
    $entries = [];
    foreach ($component->children as $child) {
        if ($child instanceof \Sabre\VObject\Component) {
            $entries[] = ['n' => '(component)' . $child->name, 'g' => null, 'v' => '', 'p' => new stdClass()];
            continue;
        }
        $value = $child->value;
        if ($child instanceof \Sabre\VObject\Property\Compound) {
            $value = implode($child->name === 'CATEGORIES' ? ',' : ';', $child->getParts());
        }
        $params = [];
        $base64 = false;
        foreach ($child->parameters as $parameter) {
            $name = strtoupper($parameter->name);
            $word = strtoupper((string)($parameter->value ?? $parameter->name));
            if (($name === 'ENCODING' || $parameter->value === null) && ($word === 'B' || $word === 'BASE64')) {
                $base64 = true;
            }
            if ($name === 'ENCODING' || $name === 'CHARSET') {
                continue;
            }
            if ($parameter->value === null) {
                if (!in_array(strtoupper($parameter->name), ['BASE64', 'B', 'QUOTED-PRINTABLE', '8BIT', '7BIT'], true)) {
                    $params['(bare)'][] = $parameter->name;
                }
                continue;
            }
            foreach (explode(',', $parameter->value) as $item) {
                $params[$name][] = $item;
            }
        }
        if ($base64) {
            $data = base64_decode(preg_replace('/\s+/', '', (string)$value), false);
            $value = $data === false ? 'undecodable-base64'
                : 'binary:' . strlen($data) . ':' . substr(sha1($data), 0, 16) . ':' . sabre_magic($data);
        }
        foreach ($params as $name => $values) {
            sort($values);
            $params[$name] = $values;
        }
        $entries[] = [
            'n' => strtoupper($child->name), 'g' => $child->group, 'v' => (string)$value,
            'p' => $params ? $params : new stdClass(),
        ];
    }
    return $entries;
}

if ($argc < 2) {
    fwrite(STDERR, "usage: php sabre_view.php FILE...\n");
    exit(64);
}
foreach (array_slice($argv, 1) as $path) {
    $cards = [];
    $error = null;
    $handle = @fopen($path, 'rb');
    if ($handle === false) {
        $error = 'cannot open';
    } else {
        $splitter = new \Sabre\VObject\Splitter\VCard($handle);
        while (true) {
            try {
                $card = $splitter->getNext();
            } catch (\Throwable $failure) {
                $error = get_class($failure) . ': ' . substr(preg_replace('/\s+/', ' ', $failure->getMessage()), 0, 200);
                break;
            }
            if (!$card) {
                break;
            }
            $cards[] = sabre_entries($card);
        }
        fclose($handle);
    }
    $line = json_encode(['file' => $path, 'cards' => $cards, 'error' => $error],
        JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES | JSON_INVALID_UTF8_SUBSTITUTE);
    echo $line, "\n";
}
