<?php
// Validates vCard files with sabre/vobject, one PHP process for many files.
//
// usage: php sabre_validate.php [--all] FILE...
//
// Each file is split into cards with Sabre\VObject\Splitter\VCard (which
// parses each card fully) and every card's validate() messages are counted by
// level: 1 = notice (repairable), 2 = warning, 3 = error. A card that fails to
// parse counts as one level-3 error, and so do a file with no card at all and
// text after the file's last END: line (the splitter drops both silently).
//
// Output, tab-separated, on stdout:
//   FILE   cards=N notices=N warnings=N errors=N PATH     one per file
//   ERROR  PATH card=K message                            every level-3 message
//   NOTE   PATH card=K level=L message                    levels 1-2, with --all
// Exit status: 0 when no level-3 message, 1 otherwise, 2 when sabre is missing,
// 64 on bad usage.

require __DIR__ . '/sabre_load.php';
sabre_load();

function one_line(string $text): string
{
    $text = trim(preg_replace('/\s+/', ' ', $text));
    return strlen($text) > 300 ? substr($text, 0, 300) . '...' : $text;
}

// Returns [cards, [level => count], [[card, level, message], ...]] for one file.
function validate_file(string $path): array
{
    $counts = [1 => 0, 2 => 0, 3 => 0];
    $messages = [];
    $cards = 0;
    $add = function (int $card, int $level, string $message) use (&$counts, &$messages) {
        $level = max(1, min(3, $level));
        $counts[$level]++;
        $messages[] = [$card, $level, one_line($message)];
    };

    $handle = @fopen($path, 'rb');
    if ($handle === false) {
        $add(0, 3, 'cannot open file');
        return [0, $counts, $messages];
    }
    $splitter = new \Sabre\VObject\Splitter\VCard($handle);
    while (true) {
        $card = $cards + 1;
        try {
            $vcard = $splitter->getNext();
        } catch (\Throwable $error) {
            $cards = $card;
            $add($card, 3, 'parse: ' . get_class($error) . ': ' . $error->getMessage());
            continue;
        }
        if (!$vcard) {
            break; // 2.x returns false at the end, 4.x null
        }
        $cards = $card;
        try {
            foreach ($vcard->validate() as $warning) {
                $add($card, (int)$warning['level'], (string)$warning['message']);
            }
        } catch (\Throwable $error) {
            $add($card, 3, 'validate: ' . get_class($error) . ': ' . $error->getMessage());
        }
    }
    fclose($handle);

    $text = rtrim((string)file_get_contents($path));
    $lastBreak = max(strrpos($text, "\n"), strrpos($text, "\r"));
    $lastLine = $lastBreak === false ? $text : substr($text, $lastBreak + 1);
    if ($cards === 0) {
        $add(0, 3, 'no vCard found');
    } elseif (strncasecmp($lastLine, 'END:', 4) !== 0) {
        $add($cards + 1, 3, 'text after the last END: line (truncated card?)');
    }
    return [$cards, $counts, $messages];
}

$all = false;
$paths = [];
foreach (array_slice($argv, 1) as $arg) {
    if ($arg === '--all') {
        $all = true;
    } else {
        $paths[] = $arg;
    }
}
if (!$paths) {
    fwrite(STDERR, "usage: php sabre_validate.php [--all] FILE...\n");
    exit(64);
}

$failed = false;
foreach ($paths as $path) {
    [$cards, $counts, $messages] = validate_file($path);
    printf("FILE\tcards=%d\tnotices=%d\twarnings=%d\terrors=%d\t%s\n",
        $cards, $counts[1], $counts[2], $counts[3], $path);
    foreach ($messages as [$card, $level, $message]) {
        if ($level === 3) {
            printf("ERROR\t%s\tcard=%d\t%s\n", $path, $card, $message);
        } elseif ($all) {
            printf("NOTE\t%s\tcard=%d\tlevel=%d\t%s\n", $path, $card, $level, $message);
        }
    }
    $failed = $failed || $counts[3] > 0;
}
exit($failed ? 1 : 0);
