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

static void mark_path(const struct fg_graph *g, int a, int b, FILE *out, bool *marks)
{
	int *path = NULL, len = fg_path(g, a, b, &path), i, j;

	for (i = 0; i < len; i++) {
		if (out)
			fprintf(out, "%s%s", i ? " -> " : "    ", g->nodes[path[i]].id);
		if (!marks || i == len - 1)
			continue;
		for (j = 0; j < g->nodes[path[i]].nout; j++) {
			int e = g->nodes[path[i]].out[j];

			if (g->edges[e].to == path[i + 1])
				marks[e] = true;
		}
	}
	if (out)
		fputc('\n', out);
	free(path);
}

struct violations {
	FILE *out;		/* where each is described, or NULL */
	bool brief;		/* described as " A>B", without the path */
	bool *edge_marks;	/* the edges of one path behind each, or NULL */
};

static const char *short_name(const struct fg_node *n)
{
	return n->dev ? n->dev : n->id;
}

/* fg_for_each_need() callback: a needs b; does list order freeze b first? */
static int list_violation(const struct fg_graph *g, int a, int b, void *arg)
{
	const struct violations *v = arg;

	if (g->nodes[b].list_idx > g->nodes[a].list_idx)
		return 0;
	if (v->brief) {
		fprintf(v->out, " %s>%s", short_name(&g->nodes[a]), short_name(&g->nodes[b]));
		return 1;
	}
	if (v->out)
		fprintf(v->out, "  %s needs %s, which list order freezes first:\n",
			fg_name(&g->nodes[a]), fg_name(&g->nodes[b]));
	if (v->out || v->edge_marks)
		mark_path(g, a, b, v->out, v->edge_marks);
	return 1;
}

/*
 * Count the pairs (A, B) of eligible superblocks where A needs B and list
 * order freezes B first, and mark the edges of one path behind each.
 */
int fg_list_violations(const struct fg_graph *g, bool *edge_marks)
{
	struct violations v = { .edge_marks = edge_marks };

	return fg_for_each_need(g, list_violation, &v);
}

/*
 * Count the violations and describe each, in one pass: briefly (" A>B") or
 * with the path behind it.  The caller frees *text.
 */
static int describe_violations(const struct fg_graph *g, bool brief, char **text)
{
	struct violations v = { .brief = brief };
	size_t len;
	int n;

	v.out = open_memstream(text, &len);
	if (!v.out)
		fg_oom();
	n = fg_for_each_need(g, list_violation, &v);
	fclose(v.out);
	return n;
}

static const char *cell(const struct fg_graph *g, const int *v, int k, int i)
{
	return i < k ? fg_name(&g->nodes[v[i]]) : "";
}

/*
 * One line each: "dag: DEV ...", "list: ...", "violations: N", and
 * "violated: A>B ..." (A needs B, and list order freezes B first).
 */
static void print_brief(const struct fg_graph *g, const int *dag, int k,
			const int *list, int kl)
{
	char *pairs;
	int i, n;

	printf("dag:");
	for (i = 0; i < k; i++)
		printf(" %s", short_name(&g->nodes[dag[i]]));
	printf("\nlist:");
	for (i = 0; i < kl; i++)
		printf(" %s", short_name(&g->nodes[list[i]]));
	n = describe_violations(g, true, &pairs);
	printf("\nviolations: %d\nviolated:%s\n", n, pairs);
	free(pairs);
}

int fg_cmd_order(int argc, char **argv)
{
	bool brief = argc == 3 && !strcmp(argv[1], "--brief");
	struct fg_graph g;
	int rc, k = 0, kl = 0, i, n, *dag, *list;
	char *text;

	if (argc != 2 + brief)
		return FG_EXIT_USAGE;
	argv += brief;
	fg_init(&g, argv[1]);
	rc = fg_load_acyclic(&g, argv[1]);
	if (rc)
		goto out;
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
	n = describe_violations(&g, false, &text);
	if (n)
		printf("list order violates %d dependenc%s:\n%s", n, n == 1 ? "y" : "ies", text);
	else
		printf("list order violates no dependency\n");
	free(text);
out_free:
	free(dag);
	free(list);
out:
	fg_free(&g);
	return rc;
}
