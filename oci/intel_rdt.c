/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oci/base/strv.h"
#include "oci/intel_rdt.h"
#include "oci/json.h"

/* Names resctrl keeps for itself at its root. */
static bool clos_id_valid(const char *id)
{
	static const char *const reserved[] = { ".", "..", "info", "mon_groups", "mon_data" };

	if (!*id || strchr(id, '/') || strchr(id, '\n'))
		return false;
	for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
		if (strcmp(id, reserved[i]) == 0)
			return false;
	return true;
}

/* schemata (runtime-spec 1.3): an array of lines, kept as one text with
 * a newline after each; an empty array is none. */
static int parse_schemata(yajl_val o, struct oci_intel_rdt *rdt, struct shim_error *err)
{
	char **lines = NULL;
	size_t len = 1, at = 0, i;
	int r = 0;

	if (json_get_strv(o, "schemata", "linux.intelRdt", &lines, err) < 0)
		return -1;
	for (i = 0; lines && lines[i] && r == 0; i++) {
		if (strchr(lines[i], '\n'))
			r = json_fail(err, "linux.intelRdt.schemata", "[%zu]: one line each, "
				      "without a newline", i);
		len += strlen(lines[i]) + 1;
	}
	if (r == 0 && lines && lines[0] && !(rdt->schemata = malloc(len)))
		r = shim_fail(err, ENOMEM, "linux.intelRdt.schemata");
	for (i = 0; r == 0 && rdt->schemata && lines[i]; i++)
		at += (size_t)sprintf(rdt->schemata + at, "%s\n", lines[i]);
	strv_free(lines);
	return r;
}

int oci_intel_rdt_parse(yajl_val lx, struct oci_intel_rdt *rdt, struct shim_error *err)
{
	const char *w = "linux.intelRdt";
	yajl_val o = NULL;

	if (json_get_object(lx, "intelRdt", "linux", &o, err) < 0)
		return -1;
	if (!o)
		return 0;
	rdt->present = true;
	if (json_get_string(o, "closID", w, &rdt->clos_id, err) < 0 ||
	    json_get_string(o, "l3CacheSchema", w, &rdt->l3_cache_schema, err) < 0 ||
	    json_get_string(o, "memBwSchema", w, &rdt->mem_bw_schema, err) < 0 ||
	    parse_schemata(o, rdt, err) < 0 ||
	    json_get_bool(o, "enableCMT", w, &rdt->enable_cmt, err) < 0 ||
	    json_get_bool(o, "enableMBM", w, &rdt->enable_mbm, err) < 0 ||
	    json_get_bool(o, "enableMonitoring", w, &rdt->enable_monitoring, err) < 0)
		return -1;
	if (rdt->clos_id && !clos_id_valid(rdt->clos_id))
		return json_fail(err, "linux.intelRdt.closID", "\"%s\" is not a resctrl group name",
				 rdt->clos_id);
	if (rdt->mem_bw_schema && (strncmp(rdt->mem_bw_schema, "MB:", 3) != 0 ||
				   strchr(rdt->mem_bw_schema, '\n')))
		return json_fail(err, "linux.intelRdt.memBwSchema", "\"%s\": one line starting "
				 "with \"MB:\"", rdt->mem_bw_schema);
	return 0;
}

void oci_intel_rdt_release(struct oci_intel_rdt *rdt)
{
	free(rdt->clos_id);
	free(rdt->l3_cache_schema);
	free(rdt->mem_bw_schema);
	free(rdt->schemata);
	memset(rdt, 0, sizeof(*rdt));
}

static bool given(const char *s)
{
	return s && *s;
}

bool oci_intel_rdt_has_schema(const struct oci_intel_rdt *rdt)
{
	return given(rdt->l3_cache_schema) || given(rdt->mem_bw_schema) || given(rdt->schemata);
}

/* Append n bytes of s and a newline to buf (used bytes in *at). */
static int append_line(char *buf, size_t len, size_t *at, const char *s, size_t n)
{
	if (*at + n + 2 > len)
		return -1;
	memcpy(buf + *at, s, n);
	*at += n;
	buf[(*at)++] = '\n';
	buf[*at] = '\0';
	return 0;
}

int oci_intel_rdt_schema_text(const struct oci_intel_rdt *rdt, char *buf, size_t len,
			      struct shim_error *err)
{
	const char *l3 = rdt->l3_cache_schema, *mb = rdt->mem_bw_schema;
	size_t at = 0;

	if (len)
		buf[0] = '\0';
	for (const char *p = given(l3) ? l3 : ""; *p;) {
		size_t n = strcspn(p, "\n");

		if (n && !(given(mb) && strncmp(p, "MB:", 3) == 0) &&
		    append_line(buf, len, &at, p, n) < 0)
			return shim_fail(err, E2BIG, "linux.intelRdt.l3CacheSchema: too long");
		p += n + (p[n] == '\n');
	}
	if (given(mb) && append_line(buf, len, &at, mb, strlen(mb)) < 0)
		return shim_fail(err, E2BIG, "linux.intelRdt.memBwSchema: too long");
	return 0;
}

/* The value of domain dom on the line for resource res in text, as the
 * number it is written as; false when text has none. */
static bool domain_value(const char *text, const char *res, size_t res_len, const char *dom,
			 size_t dom_len, unsigned long long *v)
{
	int base = (res_len == 2 && strncmp(res, "MB", 2) == 0) ||
		   (res_len == 4 && strncmp(res, "SMBA", 4) == 0) ? 10 : 16;

	for (const char *line = text; *line;) {
		size_t n = strcspn(line, "\n");
		const char *p = line + strspn(line, " \t");

		if (strncmp(p, res, res_len) == 0 && p[res_len] == ':') {
			for (p += res_len + 1; p < line + n;) {
				size_t d = strcspn(p, "=;\n");

				if (p[d] == '=' && d == dom_len && strncmp(p, dom, d) == 0) {
					*v = strtoull(p + d + 1, NULL, base);
					return true;
				}
				p += strcspn(p, ";\n");
				p += *p == ';';
			}
		}
		line += n + (line[n] == '\n');
	}
	return false;
}

bool oci_intel_rdt_schema_matches(const char *wanted, const char *current)
{
	for (const char *line = wanted; *line;) {
		size_t n = strcspn(line, "\n");
		const char *p = line + strspn(line, " \t");
		size_t res_len = strcspn(p, ":\n");

		if (p[res_len] == ':') {
			const char *res = p;

			for (p += res_len + 1; p < line + n;) {
				size_t d = strcspn(p, "=;\n");
				unsigned long long want, have;
				int base = strncmp(res, "MB:", 3) == 0 || strncmp(res, "SMBA:", 5) == 0
						   ? 10 : 16;

				if (p[d] != '=')
					return false;
				want = strtoull(p + d + 1, NULL, base);
				if (!domain_value(current, res, res_len, p, d, &have) || have != want)
					return false;
				p += strcspn(p, ";\n");
				p += *p == ';';
			}
		}
		line += n + (line[n] == '\n');
	}
	return true;
}
