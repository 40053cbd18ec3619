/* Times Evolution's EVCard (libebook-contacts, C) on one vCard file.
 *
 * usage: evcard_bench FILE parse|parse-write
 *        evcard_bench FILE write OUT
 *        evcard_bench --version
 * build: cc -O2 -Wno-deprecated-declarations -o evcard_bench Scripts/peers/evcard_bench.c $(pkg-config --cflags --libs libebook-contacts-1.2)
 *        (Scripts/bench-suite.sh does this; Debian: apt-get install libebook-contacts1.2-dev pkg-config)
 *
 * The file is read line by line (getline, so memory stays at one card); a card is the lines from BEGIN:VCARD
 * to END:VCARD (case-insensitive, as EVCard itself matches them). Each card becomes an EVCard through
 * e_vcard_new_from_string.
 *
 * EVCard parses lazily: e_vcard_new_from_string only keeps the text, and e_vcard_to_string(EVC_FORMAT_VCARD_30)
 * of a card nobody has looked at returns that text unchanged when it says VERSION:3.0. That would time a
 * memcpy, so every card is parsed on purpose: e_vcard_get_attributes builds every attribute, parameter and
 * value, the attribute count is read, and the run stops (exit 1) if e_vcard_is_parsed still says no. Writing
 * then serialises those attributes, so the output is EVCard's own vCard 3.0, not the input echoed.
 *
 * parse        every card parsed fully, nothing written.
 * parse-write  the same, and every card written as vCard 3.0 into memory (lengths added up, as the other peers'
 *              parse-write modes do).
 * write OUT    the same, and every card written as vCard 3.0 to OUT (CRLF between cards, buffered stdio, closed
 *              at the end: the job `vcf convert FILE -o OUT` does). OUT is not synced to disk.
 *
 * Prints one JSON line: {"bytes":N,"cards":N,"properties":N,"written":N,"seconds":S}; seconds covers opening FILE
 * to closing OUT. Exit status: 0 done; 1 nothing parsed or a card stayed unparsed; 2 FILE or OUT cannot be read or
 * written; 64 bad usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <libebook-contacts/libebook-contacts.h>

/* What one run saw. */
typedef struct {
	long long cards;
	long long properties;
	long long written;
} Tally;

static double
now_seconds (void)
{
	struct timespec ts;
	clock_gettime (CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Whether LINE (without its line end) is WORD, ignoring case and trailing blanks, as EVCard reads it. */
static gboolean
line_is (const char *line, size_t length, const char *word)
{
	size_t word_length = strlen (word);
	while (length > 0 && (line[length - 1] == '\r' || line[length - 1] == '\n' ||
			      line[length - 1] == ' ' || line[length - 1] == '\t'))
		length--;
	return length == word_length && g_ascii_strncasecmp (line, word, word_length) == 0;
}

/* Parses one card's text fully and, when OUT or COUNT_ONLY asks, serialises it as vCard 3.0. */
static gboolean
handle_card (const char *text, FILE *out, gboolean write, Tally *tally)
{
	EVCard *card = e_vcard_new_from_string (text);
	GList *attributes = e_vcard_get_attributes (card);   /* forces the lazy parse */
	if (!e_vcard_is_parsed (card)) {
		fprintf (stderr, "evcard_bench: card %lld stayed unparsed\n", tally->cards + 1);
		g_object_unref (card);
		return FALSE;
	}
	tally->cards++;
	tally->properties += g_list_length (attributes);
	if (write) {
		gchar *serialised = e_vcard_to_string (card, EVC_FORMAT_VCARD_30);
		size_t length = strlen (serialised);
		tally->written += length + 2;
		if (out != NULL) {
			fwrite (serialised, 1, length, out);
			fwrite ("\r\n", 1, 2, out);
		}
		g_free (serialised);
	}
	g_object_unref (card);
	return TRUE;
}

int
main (int argc, char **argv)
{
	if (argc == 2 && strcmp (argv[1], "--version") == 0) {
		printf ("Evolution EVCard (libebook-contacts %u.%u.%u)\n", eds_major_version, eds_minor_version,
			eds_micro_version);
		return 0;
	}
	gboolean write_file = argc == 4 && strcmp (argv[2], "write") == 0;
	if (!write_file && !(argc == 3 && (strcmp (argv[2], "parse") == 0 || strcmp (argv[2], "parse-write") == 0))) {
		fprintf (stderr, "usage: evcard_bench FILE parse|parse-write\n       evcard_bench FILE write OUT\n");
		return 64;
	}
	const char *path = argv[1];
	gboolean write = write_file || strcmp (argv[2], "parse-write") == 0;

	struct stat info;
	if (stat (path, &info) != 0) {
		fprintf (stderr, "evcard_bench: cannot read %s: %s\n", path, strerror (errno));
		return 2;
	}
	double start = now_seconds ();
	FILE *in = fopen (path, "rb");
	if (in == NULL) {
		fprintf (stderr, "evcard_bench: cannot read %s: %s\n", path, strerror (errno));
		return 2;
	}
	FILE *out = NULL;
	if (write_file && (out = fopen (argv[3], "wb")) == NULL) {
		fprintf (stderr, "evcard_bench: cannot write %s: %s\n", argv[3], strerror (errno));
		return 2;
	}

	Tally tally = { 0, 0, 0 };
	GString *card = g_string_sized_new (4096);
	gboolean inside = FALSE;
	char *line = NULL;
	size_t capacity = 0;
	ssize_t length;
	while ((length = getline (&line, &capacity, in)) >= 0) {
		if (!inside) {
			if (!line_is (line, length, "BEGIN:VCARD"))
				continue;
			inside = TRUE;
			g_string_truncate (card, 0);
		}
		g_string_append_len (card, line, length);
		if (line_is (line, length, "END:VCARD")) {
			inside = FALSE;
			if (!handle_card (card->str, out, write, &tally))
				return 1;
		}
	}
	gboolean read_failed = ferror (in);
	fclose (in);
	free (line);
	g_string_free (card, TRUE);
	if (read_failed) {
		fprintf (stderr, "evcard_bench: cannot read %s\n", path);
		return 2;
	}
	if (out != NULL && (ferror (out) || fclose (out) != 0)) {
		fprintf (stderr, "evcard_bench: cannot write %s\n", argv[3]);
		return 2;
	}
	double seconds = now_seconds () - start;

	if (tally.properties == 0 || (write && tally.written == 0)) {
		fprintf (stderr, "evcard_bench: nothing parsed\n");
		return 1;
	}
	printf ("{\"bytes\":%lld,\"cards\":%lld,\"properties\":%lld,\"written\":%lld,\"seconds\":%.6f}\n",
		(long long) info.st_size, tally.cards, tally.properties, tally.written, seconds);
	return 0;
}
