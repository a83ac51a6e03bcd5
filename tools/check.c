// SPDX-License-Identifier: GPL-2.0
/*
 * fsgraph check FILE [--sequence SEQ [--exact]] [--order dag|list]
 *
 * Verifies a dump: it is acyclic; freeze_idx and list_idx number the eligible
 * superblocks 0..k-1; list_idx is the early phase (the superblocks that write
 * through a node user space serves) newest first, then the others newest
 * first; every superblock is frozen before each superblock it needs,
 * directly or through block devices; the order is the canonical one (ties
 * broken by list_idx); and, with --sequence, that the sequence the kernel
 * logged froze every eligible superblock once, in an order the graph allows
 * (a parallel freeze logs the order its freezes completed in), or with
 * --exact, and in list order, in exactly the dump's order.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsgraph.h"

/* freeze_idx (or list_idx) must be a permutation of 0..k-1 over eligibles. */
static int check_indices(const struct fg_graph *g, bool list)
{
	int i, k = 0, bad = 0, *seen;
	const char *what = list ? "list_idx" : "freeze_idx";

	for (i = 0; i < g->nnodes; i++)
		k += g->nodes[i].kind == FG_SB && g->nodes[i].eligible;
	seen = fg_xmalloc(sizeof(int) * (size_t)(k + 1));
	for (i = 0; i < g->nnodes && !bad; i++) {
		const struct fg_node *n = &g->nodes[i];
		int idx = list ? n->list_idx : n->freeze_idx;

		if (n->kind != FG_SB)
			continue;
		if (!n->eligible && idx != -1) {
			fg_err(g, "%s: not eligible but %s=%d (must be -1)", n->id, what, idx);
			bad = 1;
		} else if (n->eligible && (idx < 0 || idx >= k)) {
			fg_err(g, "%s: %s=%d out of range 0..%d", n->id, what, idx, k - 1);
			bad = 1;
		} else if (n->eligible && seen[idx]++) {
			fg_err(g, "%s: %s=%d given twice", n->id, what, idx);
			bad = 1;
		}
	}
	free(seen);
	return bad;
}

/*
 * list_idx is the order fs_freeze_order=list freezes in: the early phase
 * first, then the late one, each newest superblock (highest list_pos) first.
 */
static int check_list_order(const struct fg_graph *g)
{
	bool *early = fg_needs_served(g);
	int k = 0, i, bad = 0, *v = fg_eligible_by(g, true, &k);

	for (i = 1; i < k && !bad; i++) {
		const struct fg_node *a = &g->nodes[v[i - 1]], *b = &g->nodes[v[i]];

		if (early[v[i - 1]] != early[v[i]]) {
			if (early[v[i - 1]])
				continue;
			fg_err(g, "list_idx: %s at %d writes through storage user space serves, "
			       "so it is frozen early, before %s at %d", fg_name(b), b->list_idx,
			       fg_name(a), a->list_idx);
			bad = 1;
		} else if (a->list_pos < b->list_pos) {
			fg_err(g, "list_idx: %s (list_pos %d) is newer than %s (list_pos %d), "
			       "so it comes first", fg_name(b), b->list_pos, fg_name(a), a->list_pos);
			bad = 1;
		}
	}
	free(v);
	free(early);
	return bad;
}

static void print_path(const struct fg_graph *g, int from, int to)
{
	int *path = NULL, len = fg_path(g, from, to, &path), i;

	for (i = 0; i < len; i++)
		fprintf(stderr, "%s%s", i ? " -> " : "    ", g->nodes[path[i]].id);
	fputc('\n', stderr);
	free(path);
}

/* fg_for_each_need() callback: a needs b, so a must be frozen first. */
static int check_need(const struct fg_graph *g, int a, int b, void *arg)
{
	const struct fg_node *na = &g->nodes[a], *nb = &g->nodes[b];

	(void)arg;
	if (na->freeze_idx < nb->freeze_idx)
		return 0;
	fg_err(g, "order violation: %s is frozen at %d, after %s at %d, which it needs:",
	       fg_name(na), na->freeze_idx, fg_name(nb), nb->freeze_idx);
	print_path(g, a, b);
	return 1;
}

/* Each eligible superblock precedes every eligible superblock it needs. */
static int check_dependencies(const struct fg_graph *g)
{
	return fg_for_each_need(g, check_need, NULL) > 0;
}

static int check_canonical(const struct fg_graph *g)
{
	int k = 0, kk = 0, i, bad = 0;
	int *want = fg_canonical_order(g, &k), *have = fg_eligible_by(g, false, &kk);

	for (i = 0; want && i < k && i < kk; i++) {
		if (want[i] != have[i]) {
			fg_err(g, "freeze order differs from the canonical order at %d: "
			       "%s instead of %s (ties go by list_idx: the early phase, then newest first)",
			       i, fg_name(&g->nodes[have[i]]), fg_name(&g->nodes[want[i]]));
			bad = 1;
			break;
		}
	}
	free(want);
	free(have);
	return bad;
}

/*
 * Read a logged sequence: node indices, each an eligible superblock once.
 * NULL for a bad sequence, with *len -1 if the file cannot be read.
 */
static int *read_sequence(const struct fg_graph *g, const char *seq, int *len)
{
	FILE *f = fopen(seq, "r");
	int *v, *pos, i, cap = g->nnodes + 1;
	char id[128];

	*len = 0;
	if (!f) {
		fprintf(stderr, "%s: cannot open sequence file\n", seq);
		*len = -1;
		return NULL;
	}
	v = fg_xmalloc(sizeof(int) * (size_t)cap);
	pos = fg_xmalloc(sizeof(int) * (size_t)cap);
	for (i = 0; i < g->nnodes; i++)
		pos[i] = -1;
	while (v && fscanf(f, "%127s", id) == 1) {
		i = fg_find(g, id);
		if (i < 0 || g->nodes[i].kind != FG_SB || !g->nodes[i].eligible) {
			fg_err(g, "sequence %s: froze %s at %d, which is not an eligible superblock of the dump",
			       seq, id, *len);
		} else if (pos[i] >= 0) {
			fg_err(g, "sequence %s: froze %s at %d, and at %d before", seq, id, *len, pos[i]);
		} else if (*len < cap) {
			pos[i] = *len;
			v[(*len)++] = i;
			continue;
		}
		free(v);
		v = NULL;
	}
	fclose(f);
	free(pos);
	return v;
}

/* fg_for_each_need() callback: a needs b, so the sequence has a first. */
static int sequence_need(const struct fg_graph *g, int a, int b, void *arg)
{
	const int *pos = arg;

	if (pos[a] < pos[b])
		return 0;
	fg_err(g, "sequence: froze %s at %d, after %s at %d, which it needs:",
	       fg_name(&g->nodes[a]), pos[a], fg_name(&g->nodes[b]), pos[b]);
	print_path(g, a, b);
	return 1;
}

/*
 * Any order the graph allows: the early phase (the superblocks that write
 * through storage user space serves) first, and each superblock before
 * every one it needs.  So a parallel freeze, logged in the order its
 * freezes completed, passes.
 */
static int check_consistent(const struct fg_graph *g, const int *v, int k)
{
	bool *early = fg_needs_served(g);
	int *pos = fg_xmalloc(sizeof(int) * (size_t)(g->nnodes + 1)), i, bad = 0;

	for (i = 0; i < k; i++)
		pos[v[i]] = i;
	for (i = 1; i < k && !bad; i++) {
		if (early[v[i]] && !early[v[i - 1]]) {
			fg_err(g, "sequence: froze %s at %d, which writes through storage user space serves, after %s",
			       fg_name(&g->nodes[v[i]]), i, fg_name(&g->nodes[v[i - 1]]));
			bad = 1;
		}
	}
	if (!bad)
		bad = fg_for_each_need(g, sequence_need, pos) > 0;
	free(pos);
	free(early);
	return bad;
}

/*
 * The sequence the kernel logged froze every eligible superblock once, in
 * an order the graph allows; with @exact (and always in list order), in
 * exactly the dump's order.
 */
static int check_sequence(const struct fg_graph *g, const char *seq, bool by_list, bool exact)
{
	int k = 0, n = 0, i, bad = 0, *want, *have;

	have = read_sequence(g, seq, &n);
	if (!have)
		return n < 0 ? FG_EXIT_INPUT : FG_EXIT_FAIL;
	want = fg_eligible_by(g, by_list, &k);
	if (n != k) {
		fg_err(g, "sequence %s: froze %d, the dump has %d eligible (next: %s)",
		       seq, n, k, n < k ? fg_name(&g->nodes[want[n]]) : "none");
		bad = 1;
	}
	for (i = 0; !bad && (exact || by_list) && i < k; i++) {
		if (have[i] != want[i]) {
			fg_err(g, "sequence %s: froze %s at %d, the %s order has %s",
			       seq, g->nodes[have[i]].id, i, by_list ? "list" : "dag",
			       fg_name(&g->nodes[want[i]]));
			bad = 1;
		}
	}
	if (!bad && !by_list)
		bad = check_consistent(g, have, n);
	free(have);
	free(want);
	return bad ? FG_EXIT_FAIL : FG_EXIT_OK;
}

int fg_cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "sequence", required_argument, NULL, 's' },
		{ "order", required_argument, NULL, 'o' },
		{ "exact", no_argument, NULL, 'x' },
		{ NULL, 0, NULL, 0 },
	};
	const char *seq = NULL, *order = NULL;
	bool exact = false;
	struct fg_graph g;
	int c, rc;

	while ((c = getopt_long(argc, argv, "s:o:x", opts, NULL)) != -1) {
		if (c == 's')
			seq = optarg;
		else if (c == 'x')
			exact = true;
		else if (c == 'o' && (!strcmp(optarg, "dag") || !strcmp(optarg, "list")))
			order = optarg;
		else
			return FG_EXIT_USAGE;
	}
	if (optind != argc - 1)
		return FG_EXIT_USAGE;
	fg_init(&g, argv[optind]);
	rc = fg_load_acyclic(&g, argv[optind]);
	if (rc)
		goto out;
	if (check_indices(&g, false) || check_indices(&g, true) || check_list_order(&g)) {
		rc = FG_EXIT_FAIL;
		goto out;
	}
	rc = check_dependencies(&g) || check_canonical(&g) ? FG_EXIT_FAIL : FG_EXIT_OK;
	if (!rc && seq)
		rc = check_sequence(&g, seq, !strcmp(order ? order : g.order, "list"), exact);
	if (!rc)
		printf("%s: ok: %d nodes, %d edges, order %s\n", g.file, g.nnodes,
		       g.nedges, order ? order : g.order);
	if (g.lost_edges)
		fprintf(stderr, "%s: warning: complete=0: the kernel could not record %d dependenc%s, so this graph and its order may be wrong\n",
			g.file, g.lost_edges, g.lost_edges == 1 ? "y" : "ies");
out:
	fg_free(&g);
	return rc;
}
