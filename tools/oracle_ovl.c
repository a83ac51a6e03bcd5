// SPDX-License-Identifier: GPL-2.0
/*
 * The oracle's view of a loop file on overlayfs.  The kernel links such a
 * loop device to the superblock of the real file (d_real_inode()): the
 * upper layer's copy, or the lower layer's file when it was never copied
 * up.  stat() cannot say which: overlayfs reports a pseudo device for each
 * layer, which is no superblock in mountinfo.  So find the overlay that the
 * path is on (the longest overlay mount point that is a prefix of it), and
 * look for the file in its upperdir, then in each lowerdir in turn, as
 * overlayfs itself does.  Every path is under fg_root.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "fsgraph.h"

struct ovl_mount {
	char point[1024], upper[1024], lower[2048];
};

/* The value of "name=" in a comma-separated option string, into out. */
static void opt_value(const char *opts, const char *name, char *out, size_t len)
{
	size_t n = strlen(name);
	const char *p = opts;

	out[0] = '\0';
	while (p && *p) {
		if (!strncmp(p, name, n) && p[n] == '=') {
			snprintf(out, len, "%.*s", (int)strcspn(p + n + 1, ","), p + n + 1);
			return;
		}
		p = strchr(p, ',');
		if (p)
			p++;
	}
}

/* The overlay mount whose mount point is the longest prefix of path. */
static bool find_overlay(const char *path, struct ovl_mount *best)
{
	char mi[1200], line[4096], point[1024], fstype[64], src[256], opts[3072];
	size_t best_len = 0;
	FILE *f;

	snprintf(mi, sizeof(mi), "%s/proc/self/mountinfo", fg_root);
	f = fopen(mi, "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		char *sep = strstr(line, " - ");
		size_t n;

		if (!sep || sscanf(line, "%*d %*d %*u:%*u %*s %1023s", point) != 1 ||
		    sscanf(sep + 3, "%63s %255s %3071s", fstype, src, opts) != 3 ||
		    strcmp(fstype, "overlay"))
			continue;
		n = strlen(point);
		if (n <= best_len || strncmp(path, point, n) || path[n] != '/')
			continue;
		best_len = n;
		snprintf(best->point, sizeof(best->point), "%s", point);
		opt_value(opts, "upperdir", best->upper, sizeof(best->upper));
		opt_value(opts, "lowerdir", best->lower, sizeof(best->lower));
	}
	fclose(f);
	return best_len > 0;
}

/* Does layer/rel exist (under fg_root)?  Then put it in out. */
static bool in_layer(const char *layer, size_t llen, const char *rel, char *out, size_t len)
{
	char full[4096];
	struct stat st;

	if (!llen)
		return false;
	snprintf(out, len, "%.*s%s", (int)llen, layer, rel);
	snprintf(full, sizeof(full), "%s%s", fg_root, out);
	return !stat(full, &st);
}

/*
 * If path is on an overlay, put the path of the real file in out and
 * return true; otherwise return false and leave out alone.
 */
bool fg_oracle_real_path(const char *path, char *out, size_t len)
{
	struct ovl_mount m;
	const char *rel, *l;

	if (!find_overlay(path, &m))
		return false;
	rel = path + strlen(m.point);
	if (in_layer(m.upper, strlen(m.upper), rel, out, len))
		return true;
	for (l = m.lower; *l;) {
		size_t n = strcspn(l, ":");

		if (in_layer(l, n, rel, out, len))
			return true;
		l += n;
		if (*l == ':')
			l++;
	}
	return false;
}
