#include "config.h"

#include "io/file_kind.h"

#include <string.h>

#include "io/json_read.h"
#include "io/run_bulk.h"

enum tl_file_kind tl_file_kind_of(const json_t *doc)
{
	const char *cmd = json_string_value(json_object_get(json_object_get(doc, "ticklab"),
							    "command"));

	if (cmd && strcmp(cmd, "search") == 0)
		return TL_FILE_SEARCH;
	if (cmd && strcmp(cmd, "fingerprint") == 0)
		return TL_FILE_FINGERPRINT;
	if (cmd && strcmp(cmd, "detect") == 0)
		return TL_FILE_DETECT;
	return TL_FILE_RUN;
}

json_t *tl_file_load(const char *path, enum tl_file_kind *kind, struct tl_bulk **bulk, char *why,
		     size_t whylen)
{
	json_t *doc = tl_json_load_bulk(path, bulk, why, whylen);

	*kind = TL_FILE_RUN;
	if (!doc)
		return NULL;
	*kind = tl_file_kind_of(doc);
	if (*kind == TL_FILE_RUN || !*bulk)
		return doc;
	/* Not a run: its loader wants the whole tree (any arrays the bulk
	 * reader took under a run's key names are put back by reading the
	 * regular file again). */
	json_decref(doc);
	tl_bulk_free(*bulk);
	*bulk = NULL;
	return tl_json_load(path, why, whylen);
}
