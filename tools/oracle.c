// SPDX-License-Identifier: GPL-2.0
/*
 * fsgraph oracle [--root DIR]: the freeze graph as userspace sees it, built
 * without the kernel's dump, the way lsblk and losetup see the system:
 *   - superblocks from /proc/self/mountinfo (list order by first mount id);
 *   - mount edges from each superblock's device number;
 *   - holder edges from /sys/block/<disk>/slaves and /sys/class/block/<dev>/holders;
 *   - loop edges from /sys/block/loop<N>/loop/backing_file, resolved with
 *     stat() to the superblock (or block device) that holds the file (on
 *     overlayfs, the real file in its upper or lower layer, as the kernel
 *     links it: oracle_ovl.c), read-only (ro=1) when /sys/block/loop<N>/ro
 *     says so;
 *   - part edges from each partition (/sys/class/block/<dev>/partition) to
 *     the disk whose sysfs directory holds it, as lsblk finds it;
 *   - journal edges from an ext2/3/4 superblock's s_journal_dev;
 *   - log and rt edges from xfs's logdev= and rtdev= mount options.
 * It writes DOT in the dump's schema.  --root prefixes every path, so that
 * the unit tests can feed it a fake system.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fsgraph.h"

const char *fg_root = "";

struct sbinfo {
	unsigned int maj, min;
	int first_mount;
	char fstype[64], source[256], superopts[1024];
};

static char *rpath(char *buf, size_t len, const char *fmt, const char *a, const char *b)
{
	char tail[1024];

	snprintf(tail, sizeof(tail), fmt, a, b);
	snprintf(buf, len, "%s%s", fg_root, tail);
	return buf;
}

/* The first line of a small file, without its newline. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

/* The sysfs name of a block device number ("dm-0"), or NULL. */
static const char *bdev_name(unsigned int maj, unsigned int min, char *buf, size_t len)
{
	char path[1200], link[1024], num[32];
	const char *base;
	ssize_t n;

	snprintf(num, sizeof(num), "%u:%u", maj, min);
	rpath(path, sizeof(path), "/sys/dev/block/%s%s", num, "");
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		return NULL;
	link[n] = '\0';
	base = strrchr(link, '/');
	snprintf(buf, len, "%s", base ? base + 1 : link);
	return buf;
}

int fg_oracle_bdev(struct fg_graph *g, unsigned int maj, unsigned int min)
{
	char id[64], name[256];
	int i;

	snprintf(id, sizeof(id), "bdev:%u:%u", maj, min);
	i = fg_add_node(g, id);
	if (!g->nodes[i].label) {
		if (!bdev_name(maj, min, name, sizeof(name)))
			snprintf(name, sizeof(name), "%u:%u", maj, min);
		g->nodes[i].label = fg_xstrdup(name);
		g->nodes[i].dev = fg_xstrdup(name);
	}
	return i;
}

int fg_oracle_sb(struct fg_graph *g, unsigned int maj, unsigned int min)
{
	char id[64];
	int i;

	snprintf(id, sizeof(id), "sb:%u:%u", maj, min);
	i = fg_add_node(g, id);
	if (!g->nodes[i].result)
		g->nodes[i].result = fg_xstrdup("none");
	return i;
}

int fg_oracle_edge(struct fg_graph *g, int from, int to, const char *kind)
{
	int e = fg_find_edge(g, from, to, kind);

	return e >= 0 ? e : fg_add_edge(g, from, to, kind);
}

/* Parse mountinfo into one sbinfo per superblock, in first-mount order. */
static struct sbinfo *read_mountinfo(int *count)
{
	char path[1200], line[4096];
	struct sbinfo *sbs = NULL;
	int n = 0, cap = 0, i;
	FILE *f;

	f = fopen(rpath(path, sizeof(path), "/proc/self/mountinfo%s%s", "", ""), "r");
	if (!f) {
		fprintf(stderr, "fsgraph oracle: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	while (fgets(line, sizeof(line), f)) {
		struct sbinfo s = { 0 };
		char *sep = strstr(line, " - ");

		if (sscanf(line, "%d %*d %u:%u", &s.first_mount, &s.maj, &s.min) != 3 || !sep ||
		    sscanf(sep + 3, "%63s %255s %1023s", s.fstype, s.source, s.superopts) != 3)
			continue;
		for (i = 0; i < n; i++)
			if (sbs[i].maj == s.maj && sbs[i].min == s.min)
				break;
		if (i < n) {
			if (s.first_mount < sbs[i].first_mount)
				sbs[i].first_mount = s.first_mount;
			continue;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			sbs = realloc(sbs, sizeof(*sbs) * (size_t)cap);
			if (!sbs)
				exit(FG_EXIT_INPUT);
		}
		sbs[n++] = s;
	}
	fclose(f);
	*count = n;
	return sbs;
}

static int cmp_mount(const void *a, const void *b)
{
	return ((const struct sbinfo *)a)->first_mount - ((const struct sbinfo *)b)->first_mount;
}

static bool is_rw(const char *opts)
{
	return !strncmp(opts, "rw", 2) && (opts[2] == ',' || !opts[2]);
}

static bool has_flag(const char *fstype)
{
	return !strcmp(fstype, "ext2") || !strcmp(fstype, "ext3") ||
	       !strcmp(fstype, "ext4") || !strcmp(fstype, "xfs");
}



static void add_superblocks(struct fg_graph *g, struct sbinfo *sbs, int n)
{
	char label[512], name[256];
	int i, s, b, k = 0;

	qsort(sbs, (size_t)n, sizeof(*sbs), cmp_mount);
	for (i = 0; i < n; i++) {
		const char *dev = bdev_name(sbs[i].maj, sbs[i].min, name, sizeof(name));
		struct fg_node *node;

		s = fg_oracle_sb(g, sbs[i].maj, sbs[i].min);
		node = &g->nodes[s];
		if (!dev)
			dev = strrchr(sbs[i].source, '/') ? strrchr(sbs[i].source, '/') + 1 : sbs[i].source;
		snprintf(label, sizeof(label), "%s %s", sbs[i].fstype, dev);
		node->label = fg_xstrdup(label);
		node->fstype = fg_xstrdup(sbs[i].fstype);
		node->dev = fg_xstrdup(dev);
		node->list_pos = i;
		if (bdev_name(sbs[i].maj, sbs[i].min, name, sizeof(name))) {
			b = fg_oracle_bdev(g, sbs[i].maj, sbs[i].min);
			fg_oracle_edge(g, s, b, "mount");
			node->eligible = has_flag(sbs[i].fstype) && is_rw(sbs[i].superopts);
			if (!strncmp(sbs[i].fstype, "ext", 3))
				fg_oracle_journal(g, s, sbs[i].maj, sbs[i].min);
			if (!strcmp(sbs[i].fstype, "xfs"))
				fg_oracle_xfs_devs(g, s, sbs[i].superopts);
		}
	}
	/* list_idx: the seed's reverse-list order over the eligible ones. */
	for (i = g->nnodes - 1; i >= 0; i--)
		if (g->nodes[i].kind == FG_SB && g->nodes[i].eligible)
			g->nodes[i].list_idx = k++;
}

static void set_order_attr(struct fg_graph *g)
{
	char path[1200], buf[128], *l, *r;

	g->last_freeze = fg_xstrdup("none");
	if (read_line(rpath(path, sizeof(path), "/sys/power/fs_freeze_order%s%s", "", ""),
		      buf, sizeof(buf))) {
		g->order = fg_xstrdup("list"); /* a kernel without the graph */
		return;
	}
	l = strchr(buf, '[');
	r = l ? strchr(l, ']') : NULL;
	if (l && r) {
		*r = '\0';
		g->order = fg_xstrdup(l + 1);
	} else {
		g->order = fg_xstrdup(buf);
	}
}

int fg_cmd_oracle(int argc, char **argv)
{
	struct fg_graph g;
	struct sbinfo *sbs;
	int n = 0, k, i, *order;

	if (argc == 3 && !strcmp(argv[1], "--root"))
		fg_root = argv[2];
	else if (argc != 1)
		return FG_EXIT_USAGE;
	fg_init(&g, "oracle");
	sbs = read_mountinfo(&n);
	if (!sbs)
		return FG_EXIT_INPUT;
	add_superblocks(&g, sbs, n);
	free(sbs);
	fg_oracle_sysfs(&g);
	set_order_attr(&g);
	order = fg_canonical_order(&g, &k);
	if (order) {
		for (i = 0; i < k; i++)
			g.nodes[order[i]].freeze_idx = i;
		free(order);
	} else {
		fprintf(stderr, "fsgraph oracle: the graph has a dependency cycle\n");
	}
	fg_write_dot(&g, stdout);
	fg_free(&g);
	return order ? FG_EXIT_OK : FG_EXIT_CYCLE;
}
