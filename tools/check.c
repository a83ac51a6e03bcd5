// SPDX-License-Identifier: GPL-2.0
/*
 * fsgraph check FILE [--sequence SEQ] [--order dag|list]
 *
 * Verifies a dump: it is acyclic; freeze_idx and list_idx number the eligible
 * superblocks 0..k-1; list_idx is the early phase (the superblocks that write
 * through a node user space serves) newest first, then the others newest
 * first; every superblock is frozen before each superblock it needs,
 * directly or through block devices; the order is the canonical one (ties
 * broken by list_idx); and, with --sequence, the sequence the kernel logged
 * is exactly the dump's order.
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

/* The logged freeze sequence equals the dump's order. */
static int check_sequence(const struct fg_graph *g, const char *seq, bool by_list)
{
	FILE *f = fopen(seq, "r");
	char id[128];
	int k = 0, i = 0, bad = 0, *want;

	if (!f) {
		fprintf(stderr, "%s: cannot open sequence file\n", seq);
		return FG_EXIT_INPUT;
	}
	want = fg_eligible_by(g, by_list, &k);
	while (!bad && fscanf(f, "%127s", id) == 1) {
		if (i >= k) {
			fg_err(g, "sequence %s: froze %s at %d, but only %d are eligible",
			       seq, id, i, k);
			bad = 1;
		} else if (strcmp(id, g->nodes[want[i]].id)) {
			fg_err(g, "sequence %s: froze %s at %d, the %s order has %s",
			       seq, id, i, by_list ? "list" : "dag", fg_name(&g->nodes[want[i]]));
			bad = 1;
		}
		i++;
	}
	if (!bad && i < k) {
		fg_err(g, "sequence %s: froze %d, the %s order has %d (next: %s)",
		       seq, i, by_list ? "list" : "dag", k, fg_name(&g->nodes[want[i]]));
		bad = 1;
	}
	fclose(f);
	free(want);
	return bad ? FG_EXIT_FAIL : FG_EXIT_OK;
}

int fg_cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "sequence", required_argument, NULL, 's' },
		{ "order", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	const char *seq = NULL, *order = NULL;
	struct fg_graph g;
	int c, rc;

	while ((c = getopt_long(argc, argv, "s:o:", opts, NULL)) != -1) {
		if (c == 's')
			seq = optarg;
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
		rc = check_sequence(&g, seq, !strcmp(order ? order : g.order, "list"));
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
