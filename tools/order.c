// SPDX-License-Identifier: GPL-2.0
/*
 * fsgraph order FILE: the DAG order and the seed's list order side by side,
 * and every dependency that list order violates, with the path behind it.
 *
 * List order violates "A needs B" when it freezes B before A: A's freeze then
 * writes through to a B that is already frozen, and waits for ever.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsgraph.h"

static void mark_path(const struct fg_graph *g, int a, int b, bool print, bool *marks)
{
	int *path = NULL, len = fg_path(g, a, b, &path), i, j;

	for (i = 0; i < len; i++) {
		if (print)
			printf("%s%s", i ? " -> " : "    ", g->nodes[path[i]].id);
		if (!marks || i == len - 1)
			continue;
		for (j = 0; j < g->nodes[path[i]].nout; j++) {
			int e = g->nodes[path[i]].out[j];

			if (g->edges[e].to == path[i + 1])
				marks[e] = true;
		}
	}
	if (print)
		putchar('\n');
	free(path);
}

/*
 * Count the pairs (A, B) of eligible superblocks where A needs B and list
 * order freezes B first.  With print, describe each; with edge_marks, mark
 * the edges of one path behind each.
 */
int fg_list_violations(const struct fg_graph *g, bool print, bool *edge_marks)
{
	int *parent = fg_xmalloc(sizeof(int) * (size_t)(g->nnodes + 1));
	int *seen = fg_xmalloc(sizeof(int) * (size_t)(g->nnodes + 1));
	int a, b, count = 0;

	for (a = 0; a < g->nnodes; a++) {
		const struct fg_node *na = &g->nodes[a];

		if (na->kind != FG_SB || !na->eligible)
			continue;
		fg_reach(g, a, parent, seen, a + 1);
		for (b = 0; b < g->nnodes; b++) {
			const struct fg_node *nb = &g->nodes[b];

			if (b == a || seen[b] != a + 1 || nb->kind != FG_SB ||
			    !nb->eligible || nb->list_idx > na->list_idx)
				continue;
			count++;
			if (print)
				printf("  %s needs %s, which list order freezes first:\n",
				       fg_name(na), fg_name(nb));
			mark_path(g, a, b, print, edge_marks);
		}
	}
	free(parent);
	free(seen);
	return count;
}

static const char *cell(const struct fg_graph *g, const int *v, int k, int i)
{
	return i < k ? fg_name(&g->nodes[v[i]]) : "";
}

/* One line each: "dag: dev dev ...", "list: ...", "violations: N". */
static void print_brief(const struct fg_graph *g, const int *dag, int k,
			const int *list, int kl)
{
	int i;

	printf("dag:");
	for (i = 0; i < k; i++)
		printf(" %s", g->nodes[dag[i]].dev ? g->nodes[dag[i]].dev : g->nodes[dag[i]].id);
	printf("\nlist:");
	for (i = 0; i < kl; i++)
		printf(" %s", g->nodes[list[i]].dev ? g->nodes[list[i]].dev : g->nodes[list[i]].id);
	printf("\nviolations: %d\n", fg_list_violations(g, false, NULL));
}

int fg_cmd_order(int argc, char **argv)
{
	bool brief = argc == 3 && !strcmp(argv[1], "--brief");
	struct fg_graph g;
	int rc, k = 0, kl = 0, i, n, *dag, *list, *cycle, len;

	if (argc != 2 + brief)
		return FG_EXIT_USAGE;
	argv += brief;
	fg_init(&g, argv[1]);
	rc = fg_load(&g, argv[1], true);
	if (rc)
		goto out;
	if (fg_find_cycle(&g, &cycle, &len)) {
		fg_print_cycle(&g, cycle, len);
		free(cycle);
		rc = FG_EXIT_CYCLE;
		goto out;
	}
	dag = fg_eligible_by(&g, false, &k);
	list = fg_eligible_by(&g, true, &kl);
	if (brief) {
		print_brief(&g, dag, k, list, kl);
		goto out_free;
	}
	printf("%-4s %-36s %s\n", "pos", "dag order (freeze_idx)", "list order (list_idx)");
	for (i = 0; i < k || i < kl; i++) {
		printf("%-4d %-36s %s\n", i, cell(&g, dag, k, i), cell(&g, list, kl, i));
	}
	printf("kernel uses: %s order; last freeze: %s\n", g.order, g.last_freeze);
	n = fg_list_violations(&g, false, NULL);
	if (n) {
		printf("list order violates %d dependenc%s:\n", n, n == 1 ? "y" : "ies");
		fg_list_violations(&g, true, NULL);
	} else {
		printf("list order violates no dependency\n");
	}
out_free:
	free(dag);
	free(list);
out:
	fg_free(&g);
	return rc;
}
