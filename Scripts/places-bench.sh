#!/usr/bin/env bash
# places-bench.sh: time vcf on 10,000 cards in a vdir and in a CardDAV address book (Radicale on a loopback
# port), beside the same merge into one file.
#
# usage: Scripts/places-bench.sh [COUNT] [--no-radicale] [--seeded]
#
# Builds vcf in release mode, makes COUNT cards (default 10,000) with /work/shared/bench/gen_corpus.py (seed 7)
# and a copy with every tenth card given a new phone, then times, with GNU time (elapsed seconds, peak KB):
#   vdir:    convert --to-vdir, convert DIR -o file, merge (nothing new), merge (1 card in 10 changed),
#            merge again; the same two merges into one file.
#   CardDAV: convert -o URL (upload), convert URL -o file (download), merge (nothing new), merge (1 in 10
#            changed), merge again; PUT requests counted from Radicale's log.
# vdir steps run three times (median); the CardDAV steps once, as an upload cannot be repeated on the same
# collection. Radicale's own time per PUT grows with the collection (each PUT of a new card looks through every
# card there for its UID), so the upload mostly measures Radicale and takes hours for 10,000 cards on a busy
# machine: --seeded skips it and puts the files of `convert --to-vdir` in the collection's folder instead (what
# the PUTs leave there, less Radicale's re-serialisation), then times download, merges and a second upload.
set -euo pipefail
cd "$(dirname "$0")/.."
count=10000
radicale=1
seeded=0
for argument in "$@"; do
    case "$argument" in
    --no-radicale) radicale=0 ;;
    --seeded) seeded=1 ;;
    -h | --help) sed -n '2,18p' "$0"; exit 0 ;;
    *) count="$argument" ;;
    esac
done
generator=${GEN_CORPUS:-/work/shared/bench/gen_corpus.py}
[ -f "$generator" ] || { echo "no $generator (set GEN_CORPUS)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "GNU time missing: apt-get install -y time" >&2; exit 2; }

swift build -c release --product vcf >/dev/null
vcf=$PWD/.build/release/vcf
work=$(mktemp -d)
server=
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

python3 "$generator" "$work/book.vcf" "$count" --seed 7 >/dev/null 2>&1
python3 - "$work/book.vcf" "$work/changed.vcf" <<'EOF'
import sys
cards = open(sys.argv[1], 'rb').read().split(b'END:VCARD\r\n')
out = []
for i, card in enumerate(cards[:-1]):
    if i % 10 == 0:
        card += b'TEL;TYPE=CELL:+1 555 01%05d\r\n' % i
    out.append(card + b'END:VCARD\r\n')
open(sys.argv[2], 'wb').write(b''.join(out))
EOF

# timed LABEL COMMAND...: one run, "LABEL SECONDS KB" on stdout, the command's last stderr line after it.
timed() {
    local label=$1
    shift
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" 2>"$work/err" >/dev/null || true
    printf '%-34s %8s s %8s KB   %s\n' "$label" $(cat "$work/time" | tail -1) "$(tail -1 "$work/err")"
}

# median3 LABEL SETUP COMMAND...: SETUP (a function) before each of three timed runs; the median run.
median3() {
    local label=$1 setup=$2
    shift 2
    local runs=()
    for _ in 1 2 3; do
        "$setup" 2>/dev/null
        runs+=("$(timed "$label" "$@")")
    done
    printf '%s\n' "${runs[@]}" | sort -k2 -n | sed -n 2p
}

echo "vcf on $count cards ($(du -h "$work/book.vcf" | cut -f1)), $(date -u +%F), $(nproc) cores"
echo
echo "vdir (median of 3)"
clear_vdir() { rm -rf "$work/vd"; }
reset_vdir() { rm -rf "$work/vd"; "$vcf" convert "$work/book.vcf" --to-vdir "$work/vd" 2>/dev/null; }
reset_file() { cp "$work/book.vcf" "$work/file.vcf"; }
median3 "convert --to-vdir" clear_vdir "$vcf" convert "$work/book.vcf" --to-vdir "$work/vd"
median3 "convert DIR -o file" true "$vcf" convert "$work/vd" -o "$work/back.vcf"
median3 "merge into vdir, nothing new" reset_vdir "$vcf" merge "$work/book.vcf" --into "$work/vd/"
median3 "merge into vdir, 1 in 10 changed" reset_vdir "$vcf" merge "$work/changed.vcf" --into "$work/vd/"
median3 "merge into vdir again" true "$vcf" merge "$work/changed.vcf" --into "$work/vd/"
median3 "merge into file, nothing new" reset_file "$vcf" merge "$work/book.vcf" --into "$work/file.vcf"
median3 "merge into file, 1 in 10 changed" reset_file "$vcf" merge "$work/changed.vcf" --into "$work/file.vcf"

[ "$radicale" = 1 ] || exit 0
python3 -c 'import radicale' 2>/dev/null || { echo "radicale missing: python3 -m pip install radicale" >&2; exit 2; }
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
echo "bench:secret" >"$work/users"
python3 -m radicale --config "" --server-hosts "127.0.0.1:$port" --storage-filesystem-folder "$work/store" \
    --auth-type htpasswd --auth-htpasswd-filename "$work/users" --auth-htpasswd-encryption plain \
    --auth-delay 0 --logging-level info >"$work/radicale.log" 2>&1 &
server=$!
sleep 2
url="http://127.0.0.1:$port/bench/book/"
curl -sf -u bench:secret -X MKCOL "$url" --data '<?xml version="1.0"?><D:mkcol xmlns:D="DAV:"
 xmlns:C="urn:ietf:params:xml:ns:carddav"><D:set><D:prop><D:resourcetype><D:collection/><C:addressbook/>
 </D:resourcetype></D:prop></D:set></D:mkcol>' >/dev/null
export VCF_CARDDAV_USER=bench VCF_CARDDAV_PASSWORD=secret
puts() { grep -c "PUT request for" "$work/radicale.log" || true; }
echo
echo "CardDAV, Radicale $(python3 -c 'import radicale; print(radicale.VERSION)' 2>/dev/null || echo '?') (one run)"
if [ "$seeded" = 1 ]; then
    "$vcf" convert "$work/book.vcf" --to-vdir "$work/seed" 2>/dev/null
    cp "$work/seed/"*.vcf "$work/store/collection-root/bench/book/"
    echo "upload skipped: the collection seeded on disk with $(ls "$work/seed" | wc -l) files"
else
    before=$(puts)
    timed "upload (convert -o URL)" "$vcf" convert "$work/book.vcf" -o "$url"
    echo "  PUT requests: $(($(puts) - before))"
fi
timed "download (convert URL -o file)" "$vcf" convert "$url" -o "$work/download.vcf"
for step in "nothing new:book" "1 in 10 changed:changed" "again:changed"; do
    before=$(puts)
    timed "merge into URL, ${step%%:*}" "$vcf" merge "$work/${step##*:}.vcf" --into "$url"
    echo "  PUT requests: $(($(puts) - before))"
done
before=$(puts)
timed "upload again (convert -o URL)" "$vcf" convert "$work/changed.vcf" -o "$url"
echo "  PUT requests: $(($(puts) - before))"
