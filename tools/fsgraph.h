/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsgraph: check, compare and render the freeze graphs that the kernel dumps
 * in /sys/kernel/debug/fs_freeze_graph (schema: DESIGN.md, "The debugfs
 * dump").  An edge A -> B means that A needs B, so A is frozen before B.
 */
#ifndef FSGRAPH_H
#define FSGRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <graphviz/cgraph.h>

/* Exit statuses, documented in "fsgraph --help". */
enum {
	FG_EXIT_OK = 0,
	FG_EXIT_FAIL = 1,	/* check failed, or diff found a difference */
	FG_EXIT_USAGE = 2,
	FG_EXIT_INPUT = 3,	/* missing file, malformed DOT, schema error */
	FG_EXIT_CYCLE = 4,	/* the graph has a dependency cycle */
};

/* The dump schema this fsgraph reads: any 1.x (fs/fs_freeze_graph_dump.c). */
#define FG_SCHEMA_MAJOR 1
#define FG_SCHEMA_MINOR 1

enum fg_kind { FG_SB, FG_BDEV, FG_OTHER };

struct fg_node {
	char *id;		/* "sb:MAJ:MIN" or "bdev:MAJ:MIN" */
	enum fg_kind kind;
	char *label, *fstype, *dev, *result;
	char *served;		/* who serves it from user space, or NULL */
	char *phase;		/* sb: the last freeze's phase, or NULL */
	int list_pos, eligible, freeze_idx, list_idx, err;
	long long freeze_ns;
	long long freeze_start_ns;	/* since its phase began (1.3) */
	bool flushed;		/* bdev: the last freeze synced it */
	int *out, nout, outcap;	/* indices into fg_graph.edges */
	int *in, nin, incap;
	Agnode_t *ag;		/* NULL for graphs not read from DOT */
};

struct fg_edge {
	int from, to;
	char *kind;
	bool ro;		/* read-only: orders nothing (ro=1) */
	Agedge_t *ag;
};

struct fg_graph {
	const char *file;	/* for messages */
	char *order, *last_freeze;
	int schema_major, schema_minor;	/* 1.0 for dumps without schema= */
	int lost_edges;		/* edges the kernel could not record (1.2) */
	bool async;		/* independent branches freeze at once (1.3) */
	long long freeze_phase_ns;	/* the last freeze's two phases (1.3) */
	struct fg_node *nodes;
	int nnodes, ncap;
	struct fg_edge *edges;
	int nedges, ecap;
	int *hash;		/* open addressing over nodes, -1 = empty */
	int hcap;
	Agraph_t *ag;
};

/* graph.c */
void fg_init(struct fg_graph *g, const char *file);
void fg_free(struct fg_graph *g);
int fg_load(struct fg_graph *g, const char *path, bool strict);
int fg_find(const struct fg_graph *g, const char *id);
int fg_add_node(struct fg_graph *g, const char *id);
int fg_add_edge(struct fg_graph *g, int from, int to, const char *kind);
int fg_find_edge(const struct fg_graph *g, int from, int to, const char *kind);
bool fg_has_edge(const struct fg_graph *g, int from, int to, const char *kind);
const char *fg_name(const struct fg_node *n);
void fg_oom(void) __attribute__((noreturn));
void *fg_xmalloc(size_t n);
char *fg_xstrdup(const char *s);
void fg_err(const struct fg_graph *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* schema.c */
int fg_schema_import(struct fg_graph *g, bool strict);

/* algo.c */
bool *fg_reached(const struct fg_graph *g);
int fg_find_cycle(const struct fg_graph *g, int **cycle, int *len);
void fg_print_cycle(const struct fg_graph *g, const int *cycle, int len);
int fg_load_acyclic(struct fg_graph *g, const char *path);
int fg_reach(const struct fg_graph *g, int src, int *parent, int *seen, int stamp);
typedef int (*fg_need_fn)(const struct fg_graph *g, int a, int b, void *arg);
int fg_for_each_need(const struct fg_graph *g, fg_need_fn fn, void *arg);
int *fg_eligible_by(const struct fg_graph *g, bool by_list, int *count);
bool *fg_needs_served(const struct fg_graph *g);
int *fg_canonical_order(const struct fg_graph *g, int *count);
int fg_path(const struct fg_graph *g, int from, int to, int **path);

/* commands */
int fg_cmd_check(int argc, char **argv);
int fg_cmd_order(int argc, char **argv);
int fg_cmd_diff(int argc, char **argv);
int fg_cmd_render(int argc, char **argv);
int fg_cmd_oracle(int argc, char **argv);

/* order.c, used by render too: edges on a path that list order violates */
int fg_list_violations(const struct fg_graph *g, bool *edge_marks);

/* oracle.c, oracle_sys.c */
extern const char *fg_root;
int fg_oracle_bdev(struct fg_graph *g, unsigned int maj, unsigned int min);
void fg_oracle_journal(struct fg_graph *g, int sb, unsigned int maj, unsigned int min);
void fg_oracle_xfs_devs(struct fg_graph *g, int sb, const char *superopts);
void fg_oracle_sysfs(struct fg_graph *g);
int fg_oracle_edge(struct fg_graph *g, int from, int to, const char *kind);
bool fg_oracle_real_path(const char *path, char *out, size_t len);
int fg_oracle_sb(struct fg_graph *g, unsigned int maj, unsigned int min);

/* dotout.c */
void fg_write_dot(const struct fg_graph *g, FILE *f);

#endif
