// SPDX-License-Identifier: GPL-2.0
/*
 * The oracle's readers of block-device state: sysfs slaves and holders, loop
 * backing files and read-only flags, partitions, the ext2/3/4 superblock's
 * journal device, and xfs's logdev and rtdev mount options.  Every path is
 * under fg_root.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fsgraph.h"

static int dev_of_name(const char *name, unsigned int *maj, unsigned int *min)
{
	char path[1200];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/sys/class/block/%s/dev", fg_root, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	ok = fscanf(f, "%u:%u", maj, min) == 2;
	fclose(f);
	return ok ? 0 : -1;
}

/* The node a file or device path stands for: its bdev, or its superblock. */
static int node_of_path(struct fg_graph *g, const char *path)
{
	char full[1200];
	struct stat st;

	snprintf(full, sizeof(full), "%s%s", fg_root, path);
	if (stat(full, &st))
		return -1;
	if (S_ISBLK(st.st_mode))
		return fg_oracle_bdev(g, major(st.st_rdev), minor(st.st_rdev));
	return fg_oracle_sb(g, major(st.st_dev), minor(st.st_dev));
}

static uint32_t le32(const unsigned char *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/*
 * An ext2/3/4 filesystem with an external journal has HAS_JOURNAL set, no
 * journal inode, and the journal's device number in s_journal_dev, encoded
 * as the kernel's new_encode_dev().
 */
void fg_oracle_journal(struct fg_graph *g, int sb, unsigned int maj, unsigned int min)
{
	unsigned char es[1024];
	char path[1200], uevent[256], name[256] = "";
	unsigned int jdev, jmaj, jmin;
	FILE *f;

	snprintf(path, sizeof(path), "%s/sys/dev/block/%u:%u/uevent", fg_root, maj, min);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(uevent, sizeof(uevent), f))
		if (sscanf(uevent, "DEVNAME=%255s", name) == 1)
			break;
	fclose(f);
	snprintf(path, sizeof(path), "%s/dev/%s", fg_root, name);
	f = fopen(path, "rb");
	if (!f)
		return;
	if (fseek(f, 1024, SEEK_SET) || fread(es, 1, sizeof(es), f) != sizeof(es)) {
		fclose(f);
		return;
	}
	fclose(f);
	if (es[0x38] != 0x53 || es[0x39] != 0xef)	/* s_magic */
		return;
	if (!(le32(es + 0x5c) & 0x4) || le32(es + 0xe0))	/* HAS_JOURNAL, s_journal_inum */
		return;
	jdev = le32(es + 0xe4);					/* s_journal_dev */
	if (!jdev)
		return;
	jmaj = (jdev & 0xfff00) >> 8;
	jmin = (jdev & 0xff) | ((jdev >> 12) & 0xfff00);
	fg_oracle_edge(g, sb, fg_oracle_bdev(g, jmaj, jmin), "journal");
}

/* xfs shows its external devices as logdev=PATH and rtdev=PATH. */
void fg_oracle_xfs_devs(struct fg_graph *g, int sb, const char *superopts)
{
	char *opts = fg_xstrdup(superopts), *save = NULL, *o;
	int n;

	for (o = strtok_r(opts, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
		const char *kind = !strncmp(o, "logdev=", 7) ? "log" :
				   !strncmp(o, "rtdev=", 6) ? "rt" : NULL;

		if (!kind)
			continue;
		n = node_of_path(g, strchr(o, '=') + 1);
		if (n >= 0)
			fg_oracle_edge(g, sb, n, kind);
		else
			fprintf(stderr, "fsgraph oracle: cannot resolve %s\n", o);
	}
	free(opts);
}

/* For each entry of DIR (a slaves or holders directory), add an edge. */
static void holder_dir(struct fg_graph *g, const char *name, const char *sub, bool slaves)
{
	char path[1200];
	unsigned int maj, min, omaj, omin;
	struct dirent *d;
	DIR *dir;

	if (dev_of_name(name, &maj, &min))
		return;
	snprintf(path, sizeof(path), "%s/sys/class/block/%s/%s", fg_root, name, sub);
	dir = opendir(path);
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		int self, other;

		if (d->d_name[0] == '.' || dev_of_name(d->d_name, &omaj, &omin))
			continue;
		self = fg_oracle_bdev(g, maj, min);
		other = fg_oracle_bdev(g, omaj, omin);
		if (slaves)
			fg_oracle_edge(g, self, other, "holder");
		else
			fg_oracle_edge(g, other, self, "holder");
	}
	closedir(dir);
}

/* A sysfs flag file: true when it reads 1. */
static bool read_flag(const char *path)
{
	FILE *f = fopen(path, "r");
	int v = 0;

	if (!f)
		return false;
	if (fscanf(f, "%d", &v) != 1)
		v = 0;
	fclose(f);
	return v == 1;
}

static void loop_backing(struct fg_graph *g, const char *name)
{
	char path[1200], file[1024], real[1024], *deleted;
	unsigned int maj, min;
	int target, e;
	FILE *f;

	snprintf(path, sizeof(path), "%s/sys/class/block/%s/loop/backing_file", fg_root, name);
	f = fopen(path, "r");
	if (!f)
		return;
	if (!fgets(file, sizeof(file), f) || dev_of_name(name, &maj, &min)) {
		fclose(f);
		return;
	}
	fclose(f);
	file[strcspn(file, "\n")] = '\0';
	deleted = strstr(file, " (deleted)");
	if (deleted)
		*deleted = '\0';
	/* On overlayfs, the real file in its layer: what the kernel links. */
	if (fg_oracle_real_path(file, real, sizeof(real)))
		snprintf(file, sizeof(file), "%s", real);
	target = node_of_path(g, file);
	if (target < 0) {
		fprintf(stderr, "fsgraph oracle: %s: cannot resolve backing file %s\n", name, file);
		return;
	}
	e = fg_oracle_edge(g, fg_oracle_bdev(g, maj, min), target, "loop");
	/* losetup -r, or a file opened read-only: the disk is read-only. */
	snprintf(path, sizeof(path), "%s/sys/class/block/%s/ro", fg_root, name);
	g->edges[e].ro = read_flag(path);
}

/* A partition's disk is the sysfs directory above it: loop0p1 in loop0. */
static void partition(struct fg_graph *g, const char *name)
{
	char path[1200], real[4096];
	unsigned int maj, min, dmaj, dmin;
	const char *disk;
	struct stat st;

	snprintf(path, sizeof(path), "%s/sys/class/block/%s/partition", fg_root, name);
	if (stat(path, &st) || dev_of_name(name, &maj, &min))
		return;
	snprintf(path, sizeof(path), "%s/sys/class/block/%s/..", fg_root, name);
	if (!realpath(path, real))
		return;
	disk = strrchr(real, '/');
	disk = disk ? disk + 1 : real;
	if (dev_of_name(disk, &dmaj, &dmin)) {
		fprintf(stderr, "fsgraph oracle: %s: cannot find its disk %s\n", name, disk);
		return;
	}
	fg_oracle_edge(g, fg_oracle_bdev(g, maj, min), fg_oracle_bdev(g, dmaj, dmin), "part");
}

void fg_oracle_sysfs(struct fg_graph *g)
{
	char path[1200];
	struct dirent *d;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/sys/class/block", fg_root);
	dir = opendir(path);
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		holder_dir(g, d->d_name, "slaves", true);
		holder_dir(g, d->d_name, "holders", false);
		if (!strncmp(d->d_name, "loop", 4))
			loop_backing(g, d->d_name);
		partition(g, d->d_name);
	}
	closedir(dir);
}
