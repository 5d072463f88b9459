#ifndef TL_IO_JSON_BUILD_H
#define TL_IO_JSON_BUILD_H

/* The one way ticklab builds JSON: every insertion is checked. jansson's
 * json_object_set_new fails only when a value could not be allocated (a
 * json_pack or json_real that returned NULL), so a failed insertion is an
 * allocation failure and follows base/'s policy (tl_fail), instead of a key
 * silently missing from a results file. */

#include <jansson.h>

json_t *tl_json_object(void);
json_t *tl_json_array(void);
/* Both steal value, like the json_*_new functions they wrap. */
void tl_json_set(json_t *obj, const char *key, json_t *value);
void tl_json_append(json_t *arr, json_t *value);
/* A JSON number, or null for NaN/inf (jansson refuses non-finite reals). */
json_t *tl_json_real(double v);

#endif
