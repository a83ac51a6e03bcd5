// SPDX-License-Identifier: GPL-2.0
/*
 * fsgraph diff [--subset] A B: compare two graphs by node id and by edge
 * (from, to, kind), and an edge's ro too.  The nodes compared are those on
 * at least one edge: a kernel dump also lists superblocks that nothing
 * depends on (proc, sysfs), which no userspace view can see.  With --subset,
 * only what A has and B lacks counts: "the expected edges are all there",
 * and an edge of A with ro=1 must be read-only in B.
 */
#include <stdio.h>
#include <string.h>

#include "fsgraph.h"

static bool on_edge(const struct fg_node *n)
{
	return n->nin || n->nout;
}

/*
 * Report what a has and b lacks; return how many things that was.  An edge
 * that both have but with another ro counts once, from a's side (@ro_all),
 * or only when a's is read-only (--subset).
 */
static int missing(const struct fg_graph *a, const struct fg_graph *b, const char *tag,
		   bool ro_all)
{
	int i, count = 0;

	for (i = 0; i < a->nnodes; i++) {
		const struct fg_node *n = &a->nodes[i];
		int j = fg_find(b, n->id);

		if (on_edge(n) && (j < 0 || !on_edge(&b->nodes[j]))) {
			printf("%s node %s\n", tag, fg_name(n));
			count++;
		}
	}
	for (i = 0; i < a->nedges; i++) {
		const struct fg_edge *e = &a->edges[i];
		int f = fg_find(b, a->nodes[e->from].id), t = fg_find(b, a->nodes[e->to].id);
		int be = fg_find_edge(b, f, t, e->kind);

		if (be < 0) {
			printf("%s edge %s -> %s [kind=%s%s]\n", tag, fg_name(&a->nodes[e->from]),
			       fg_name(&a->nodes[e->to]), e->kind, e->ro ? ", ro=1" : "");
			count++;
		} else if (e->ro != b->edges[be].ro && (ro_all || e->ro)) {
			printf("ro differs: edge %s -> %s [kind=%s]: ro=%d in A, ro=%d in B\n",
			       fg_name(&a->nodes[e->from]), fg_name(&a->nodes[e->to]), e->kind,
			       e->ro, b->edges[be].ro);
			count++;
		}
	}
	return count;
}

int fg_cmd_diff(int argc, char **argv)
{
	struct fg_graph a, b;
	bool subset = argc > 1 && !strcmp(argv[1], "--subset");
	int rc, n;

	if (argc != 3 + subset)
		return FG_EXIT_USAGE;
	fg_init(&a, argv[1 + subset]);
	fg_init(&b, argv[2 + subset]);
	rc = fg_load(&a, a.file, false);
	if (!rc)
		rc = fg_load(&b, b.file, false);
	if (rc)
		goto out;
	n = missing(&a, &b, subset ? "missing:" : "only in A:", !subset);
	if (!subset)
		n += missing(&b, &a, "only in B:", false);
	if (n) {
		printf("%s %s %s: %d difference%s\n", a.file, subset ? "is not within" : "and",
		       b.file, n, n == 1 ? "" : "s");
		rc = FG_EXIT_FAIL;
	} else {
		printf("%s %s %s: %d edges\n", a.file, subset ? "is within" : "agrees with",
		       b.file, a.nedges);
	}
out:
	fg_free(&a);
	fg_free(&b);
	return rc;
}
