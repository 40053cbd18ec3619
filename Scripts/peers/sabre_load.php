<?php
// Loads sabre/vobject for the peer scripts beside this file.
//
// Looks, in order, at $SABRE_AUTOLOAD (a file to require), a Composer
// vendor/autoload.php next to the repository's Scripts/ folder, and the
// Debian package's autoloader (php-sabre-vobject installs
// /usr/share/php/Sabre/VObject/autoload.php). Exits 2 when none works.

// The Debian package (2.1.x) predates PHP 8's return-type rules for ArrayAccess
// and friends; keep its deprecation notices out of our output.
error_reporting(E_ALL & ~E_DEPRECATED & ~E_USER_DEPRECATED);

function sabre_load(): string
{
    $candidates = [];
    $env = getenv('SABRE_AUTOLOAD');
    if ($env !== false && $env !== '') {
        $candidates[] = $env;
    }
    $candidates[] = dirname(__DIR__, 2) . '/vendor/autoload.php';
    $candidates[] = '/usr/share/php/Sabre/VObject/autoload.php';
    foreach ($candidates as $path) {
        if (is_file($path)) {
            require_once $path;
            if (class_exists('Sabre\\VObject\\Splitter\\VCard')) {
                return $path;
            }
        }
    }
    fwrite(STDERR, "sabre/vobject not found (tried: " . implode(', ', $candidates) . ")\n"
        . "install it with: apt-get install -y php-cli php-sabre-vobject\n");
    exit(2);
}

// The library's version string, or '?' when it has none.
function sabre_version(): string
{
    return class_exists('Sabre\\VObject\\Version') ? \Sabre\VObject\Version::VERSION : '?';
}
