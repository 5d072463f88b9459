/* io/json_fast.c against jansson itself, the reference: on every text the
 * fast reader accepts, jansson (json_loadb, JSON_REJECT_DUPLICATES) accepts
 * it too and reads the same document: the same types, keys in the same
 * order, strings byte for byte, reals bit for bit. Texts: documents built
 * at random and dumped by jansson, numbers written every way the grammar
 * allows (and some it does not), and those texts with random bytes
 * changed, inserted or removed. The fast reader may leave a valid text to
 * jansson; how often it reads them itself is checked on the plain ones. */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/json_fast.h"
#include "tests/tap.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

static unsigned below(unsigned n)
{
	return (unsigned)(rnd() % n);
}

/* Same document: types, order, bytes and bits. */
static bool same(const json_t *a, const json_t *b)
{
	if (json_typeof(a) != json_typeof(b))
		return false;
	switch (json_typeof(a)) {
	case JSON_OBJECT: {
		void *ia = json_object_iter((json_t *)a), *ib = json_object_iter((json_t *)b);

		if (json_object_size(a) != json_object_size(b))
			return false;
		for (; ia && ib; ia = json_object_iter_next((json_t *)a, ia),
				 ib = json_object_iter_next((json_t *)b, ib)) {
			size_t na = json_object_iter_key_len(ia), nb = json_object_iter_key_len(ib);

			if (na != nb || memcmp(json_object_iter_key(ia), json_object_iter_key(ib), na) ||
			    !same(json_object_iter_value(ia), json_object_iter_value(ib)))
				return false;
		}
		return !ia && !ib;
	}
	case JSON_ARRAY:
		if (json_array_size(a) != json_array_size(b))
			return false;
		for (size_t i = 0; i < json_array_size(a); i++)
			if (!same(json_array_get(a, i), json_array_get(b, i)))
				return false;
		return true;
	case JSON_STRING:
		return json_string_length(a) == json_string_length(b) &&
		       memcmp(json_string_value(a), json_string_value(b), json_string_length(a)) == 0;
	case JSON_INTEGER:
		return json_integer_value(a) == json_integer_value(b);
	case JSON_REAL: {
		double x = json_real_value(a), y = json_real_value(b);
		return memcmp(&x, &y, sizeof x) == 0;
	}
	default:
		return true;
	}
}

struct tally {
	size_t texts, fast, wrong, jansson_ok;
	char first_wrong[200];
};

static void check(struct tally *t, const char *text, size_t len)
{
	json_error_t err;
	json_t *f = tl_json_fast(text, len), *j = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);

	t->texts++;
	t->jansson_ok += j != NULL;
	if (f) {
		t->fast++;
		if (!j || !same(f, j)) {
			if (!t->wrong++)
				snprintf(t->first_wrong, sizeof t->first_wrong, "%.*s", (int)(len < 150 ? len : 150),
					 text);
		}
	}
	json_decref(f);
	json_decref(j);
}

/* A number's text: digits, fraction, exponent in every form, now and then
 * one the grammar refuses (leading zero, lone '-', '.', 'e' without digits). */
static void number_text(char *buf, size_t len)
{
	static const char *digits = "0123456789";
	size_t o = 0;
	unsigned nd = 1 + below(below(4) ? 8 : 24);

	if (below(3) == 0)
		buf[o++] = '-';
	if (below(20) == 0)
		buf[o++] = '+';
	for (unsigned i = 0; i < nd && o < len - 40; i++)
		buf[o++] = digits[(i == 0 && nd > 1 && below(10)) ? 1 + below(9) : below(10)];
	if (below(2)) {
		buf[o++] = '.';
		nd = below(15) == 0 ? 0 : 1 + below(below(3) ? 6 : 22);
		for (unsigned i = 0; i < nd && o < len - 20; i++)
			buf[o++] = digits[below(10)];
	}
	if (below(3) == 0) {
		buf[o++] = below(2) ? 'e' : 'E';
		if (below(2))
			buf[o++] = below(2) ? '-' : '+';
		o += (size_t)snprintf(buf + o, len - o, "%u", below(4) ? below(30) : below(400));
	}
	buf[o] = '\0';
}

static json_t *random_value(int depth);

static json_t *random_string(void)
{
	static const char *bits[] = {"a", "node", " ", "\"", "\\", "/", "\n", "\t", "\x01",
				     "\xc2\xb5", "\xe2\x89\xa4", "\xf0\x9f\x98\x80", "x y", "0"};
	char buf[64] = "";

	for (unsigned i = below(6); i > 0; i--)
		strcat(buf, bits[below(sizeof bits / sizeof *bits)]);
	return json_string(buf);
}

static json_t *random_value(int depth)
{
	unsigned k = below(depth > 4 ? 6 : 8);
	char num[128];

	switch (k) {
	case 0: return json_integer((json_int_t)(rnd() >> below(64)) * (below(2) ? 1 : -1));
	case 1: {
		double v;
		uint64_t bitsv = rnd();

		memcpy(&v, &bitsv, sizeof v);
		return isfinite(v) ? json_real(v) : json_real((double)(rnd() % 100000) / 1000.0);
	}
	case 2: number_text(num, sizeof num); return json_real(strtod(num, NULL) * (isfinite(strtod(num, NULL)) ? 1 : 0));
	case 3: return random_string();
	case 4: return below(3) == 0 ? json_null() : below(2) ? json_true() : json_false();
	case 5: return json_real((double)below(1000) / (double)(1 + below(100)));
	case 6: {
		json_t *a = json_array();
		for (unsigned i = below(6); i > 0; i--)
			json_array_append_new(a, random_value(depth + 1));
		return a;
	}
	default: {
		json_t *o = json_object();
		for (unsigned i = below(6); i > 0; i--) {
			char key[32];
			snprintf(key, sizeof key, "%s%u", below(8) ? "k" : "\xc2\xb5", below(12));
			json_object_set_new(o, key, random_value(depth + 1));
		}
		return o;
	}
	}
}

/* The text with a few random bytes changed, put in or taken out. */
static size_t mutate(const char *in, size_t n, char *out)
{
	static const char pick[] = "\"\\{}[],:.-+eE0123456789 \t\n\r\x01\x7f\x80\xbf\xc0\xc2\xe0\xed\xf0\xf4\xf5\xff" "abtfnul";
	size_t o = 0;
	unsigned edits = 1 + below(3);

	memcpy(out, in, n);
	o = n;
	for (unsigned e = 0; e < edits && o > 0; e++) {
		size_t at = below((unsigned)o);
		char c = pick[below(sizeof pick - 1)];

		switch (below(3)) {
		case 0: out[at] = c; break;
		case 1: memmove(out + at + 1, out + at, o - at); out[at] = c; o++; break;
		default: memmove(out + at, out + at + 1, o - at - 1); o--; break;
		}
	}
	return o;
}

int main(void)
{
	struct tally plain = {0}, nums = {0}, mut = {0}, odd = {0};
	char text[256], *mbuf = malloc(1 << 20);
	static const char *hand[] = {
		"{}", "[]", " [1, 2.5, -0, -0.0, 1e2, 1E-2, 0.1, \"x\"] ", "{\"a\":1,\"a\":2}",
		"{\"a\":1,}", "[1,]", "[01]", "[1.]", "[.5]", "[-]", "[1e]", "[1e+]", "[+1]",
		"[\"\\u0041\"]", "[\"\\u0000\"]", "[\"a\\qb\"]", "[\"\x01\"]", "[\"\xc0\xaf\"]",
		"[\"\xed\xa0\x80\"]", "[\"\xf4\x90\x80\x80\"]", "[\"\xc2\xb5s\"]", "1", "\"s\"", "",
		"   ", "[1] x", "[true, false, null]", "[truex]", "[nul]", "{\"k\" 1}", "{1:2}",
		"[9223372036854775807]", "[123456789012345678]", "[-123456789012345678]",
		"[1234567890123456789012]", "[1e400]", "[1e-400]", "[2.0959960070449046]",
		"[0.000000000000000000000000001]", "[100000000000000000000000.5]",
		"[9007199254740993.0]", "[9007199254740995.0]", "[0.30000000000000004]",
		"[1.7976931348623157e308]", "[2.2250738585072014e-308]", "[4.9e-324]",
		"[1844674407370955161.5]", "[0.1000000000000000055511151231257827]",
		"[1.00000000000000011102230246251565404236316680908203125]",
		"[1.000000000000000111022302462515654042363166809082031250001]",
		"\xef\xbb\xbf[1]", "[1]\0", "{\"\\u00b5\":1}", "{\"a\\nb\":1}", "[\"a\\nb\"]",
	};

	for (size_t i = 0; i < sizeof hand / sizeof *hand; i++)
		check(&odd, hand[i], strlen(hand[i]) + (strcmp(hand[i], "[1]") == 0));
	ok(odd.wrong == 0, "%zu texts written by hand (edge cases of the grammar): the fast reader "
			   "accepts %zu, each one jansson reads the same (%zu differ%s%s)",
	   odd.texts, odd.fast, odd.wrong, odd.wrong ? ": " : "", odd.first_wrong);

	for (int i = 0; i < 3000; i++) {
		json_t *doc = below(2) ? json_object() : json_array();
		char *s;

		for (unsigned k = 1 + below(8); k > 0; k--) {
			if (json_is_object(doc)) {
				char key[16];
				snprintf(key, sizeof key, "key%u", k);
				json_object_set_new(doc, key, random_value(0));
			} else {
				json_array_append_new(doc, random_value(0));
			}
		}
		s = json_dumps(doc, below(2) ? JSON_COMPACT : JSON_INDENT(2));
		check(&plain, s, strlen(s));
		for (int m = 0; m < 20; m++) {
			size_t n = strlen(s) < (1 << 19) ? mutate(s, strlen(s), mbuf) : 0;
			check(&mut, mbuf, n);
		}
		free(s);
		json_decref(doc);
	}
	ok(plain.wrong == 0, "%zu random documents dumped by jansson: every one the fast reader reads is "
			     "jansson's document, bit for bit (%zu differ%s%s)",
	   plain.texts, plain.wrong, plain.wrong ? ": " : "", plain.first_wrong);
	/* escapes \u left to jansson; the rest (most of them) read here */
	ok(plain.fast * 10 >= plain.texts * 5,
	   "and it reads most of them itself (%zu of %zu; the others hold a \\u escape)", plain.fast,
	   plain.texts);
	ok(mut.wrong == 0, "%zu of those texts with random bytes changed: the fast reader accepts %zu, "
			   "jansson %zu; none that jansson refuses or reads otherwise (%zu%s%s)",
	   mut.texts, mut.fast, mut.jansson_ok, mut.wrong, mut.wrong ? ": " : "", mut.first_wrong);

	for (int i = 0; i < 200000; i++) {
		char num[160];

		number_text(num, sizeof num);
		snprintf(text, sizeof text, "[%s]", num);
		check(&nums, text, strlen(text));
	}
	ok(nums.wrong == 0, "%zu numbers in every form the grammar has (and some it refuses): the fast "
			    "reader accepts %zu, jansson %zu, and reads each of them to jansson's bits "
			    "(%zu differ%s%s)",
	   nums.texts, nums.fast, nums.jansson_ok, nums.wrong, nums.wrong ? ": " : "",
	   nums.first_wrong);
	/* Midpoints between neighbouring doubles of 2^44 to 2^54, written out
	 * whole (19 significant digits or fewer there), and one unit of the
	 * last digit either side: round half to even is strtod's, a tie the
	 * fast reader must leave to it or get right. */
	struct tally ties = {0};
	for (int i = 0; i < 30000; i++) {
		double d = ldexp(1.0 + (double)(rnd() >> 12) / 4503599627370496.0, 44 + (int)below(10));
		long double mid = ((long double)d + (long double)nextafter(d, INFINITY)) / 2;
		char num[96];
		size_t n;

		snprintf(num, sizeof num, "%.12Lf", mid);
		n = strlen(num);
		while (num[n - 1] == '0')
			num[--n] = '\0';
		if (num[n - 1] == '.')
			num[n++] = '0', num[n] = '\0';
		snprintf(text, sizeof text, "[%s]", num);
		check(&ties, text, strlen(text));
		num[n - 1] = num[n - 1] == '9' ? '8' : (char)(num[n - 1] + 1);
		snprintf(text, sizeof text, "[%s]", num);
		check(&ties, text, strlen(text));
	}
	ok(ties.wrong == 0, "%zu midpoints between doubles and their neighbours in the last digit: the "
			    "fast reader's reals are strtod's (%zu differ%s%s)",
	   ties.texts, ties.wrong, ties.wrong ? ": " : "", ties.first_wrong);
	free(mbuf);
	return tap_done();
}
