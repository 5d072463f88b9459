#include "config.h"

#include "io/json_build.h"

#include <math.h>

#include "base/xalloc.h"

json_t *tl_json_object(void)
{
	json_t *o = json_object();
	if (!o)
		tl_fail("out of memory building JSON (an object)");
	return o;
}

json_t *tl_json_array(void)
{
	json_t *a = json_array();
	if (!a)
		tl_fail("out of memory building JSON (an array)");
	return a;
}

void tl_json_set(json_t *obj, const char *key, json_t *value)
{
	/* jansson refuses only a NULL value: a value that could not be built,
	 * for want of memory or (a string) for not being valid UTF-8. */
	if (json_object_set_new(obj, key, value) != 0)
		tl_fail("JSON key \"%s\": its value could not be built (out of memory, or text "
			"that is not valid UTF-8)", key);
}

void tl_json_append(json_t *arr, json_t *value)
{
	if (json_array_append_new(arr, value) != 0)
		tl_fail("a JSON array element could not be built (out of memory, or text that "
			"is not valid UTF-8)");
}

json_t *tl_json_real(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}
