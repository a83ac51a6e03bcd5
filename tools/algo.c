// SPDX-License-Identifier: GPL-2.0
/*
 * Graph algorithms: cycle finding, reachability, the canonical freeze order.
 *
 * The canonical order is the kernel's rule, written down independently:
 * Kahn's algorithm over the whole graph, where block devices and
 * superblocks that are not eligible are ordering-only and are passed
 * through as soon as they are ready, and among the eligible superblocks that
 * are ready the one with the smallest list_idx (newest in the superblock
 * list) goes first.  With no edges, this is the seed RFC's reverse-list order.
 *
 * As in the kernel, read-only edges (ro=1) order nothing, and only a cycle
 * among the nodes that eligible superblocks reach over the other edges is a
 * cycle that matters: Kahn's algorithm breaks any other cycle at a node that
 * is not reached.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsgraph.h"

/* Does edge e order the freeze?  A read-only edge never writes. */
static bool orders(const struct fg_graph *g, int e)
{
	return !g->edges[e].ro;
}

/* The nodes that eligible superblocks reach over edges that order. */
bool *fg_reached(const struct fg_graph *g)
{
	bool *reached = fg_xmalloc(sizeof(bool) * (size_t)(g->nnodes + 1));
	int *queue = fg_xmalloc(sizeof(int) * (size_t)(g->nnodes + 1));
	int head = 0, tail = 0, i;

	for (i = 0; i < g->nnodes; i++) {
		reached[i] = g->nodes[i].kind == FG_SB && g->nodes[i].eligible;
		if (reached[i])
			queue[tail++] = i;
	}
	while (head < tail) {
		int u = queue[head++];

		for (i = 0; i < g->nodes[u].nout; i++) {
			int e = g->nodes[u].out[i], v = g->edges[e].to;

			if (orders(g, e) && !reached[v]) {
				reached[v] = true;
				queue[tail++] = v;
			}
		}
	}
	free(queue);
	return reached;
}

/*
 * Find a cycle that matters (see the top of this file) with an iterative
 * depth-first search over the reached nodes and the edges that order.  On
 * success *cycle holds the nodes of one cycle in edge order (the first node
 * is not repeated) and the function returns 1; it returns 0 otherwise.
 */
int fg_find_cycle(const struct fg_graph *g, int **cycle, int *len)
{
	bool *reached = fg_reached(g);
	int n = g->nnodes, top, i, found = 0;
	int *color = fg_xmalloc(sizeof(int) * (size_t)(n + 1));
	int *stack = fg_xmalloc(sizeof(int) * (size_t)(n + 1));
	int *next = fg_xmalloc(sizeof(int) * (size_t)(n + 1));
	int *pos = fg_xmalloc(sizeof(int) * (size_t)(n + 1));

	for (i = 0; i < n && !found; i++) {
		if (color[i] || !reached[i])
			continue;
		top = 0;
		stack[0] = i;
		next[0] = 0;
		color[i] = 1;
		pos[i] = 0;
		while (top >= 0 && !found) {
			int u = stack[top];

			if (next[top] < g->nodes[u].nout) {
				int e = g->nodes[u].out[next[top]++], v = g->edges[e].to;

				if (!orders(g, e))
					continue;
				if (color[v] == 1) {
					*len = top - pos[v] + 1;
					*cycle = fg_xmalloc(sizeof(int) * (size_t)*len);
					memcpy(*cycle, &stack[pos[v]], sizeof(int) * (size_t)*len);
					found = 1;
				} else if (!color[v]) {
					color[v] = 1;
					stack[++top] = v;
					next[top] = 0;
					pos[v] = top;
				}
			} else {
				color[u] = 2;
				top--;
			}
		}
	}
	free(reached);
	free(color);
	free(stack);
	free(next);
	free(pos);
	return found;
}

void fg_print_cycle(const struct fg_graph *g, const int *cycle, int len)
{
	int i;

	fprintf(stderr, "%s: dependency cycle: ", g->file);
	for (i = 0; i < len; i++)
		fprintf(stderr, "%s -> ", g->nodes[cycle[i]].id);
	fprintf(stderr, "%s\n", g->nodes[cycle[0]].id);
}

/* Load a whole dump, and refuse it (exit status 4) if it has a cycle. */
int fg_load_acyclic(struct fg_graph *g, const char *path)
{
	int rc = fg_load(g, path, true), *cycle, len;

	if (!rc && fg_find_cycle(g, &cycle, &len)) {
		fg_print_cycle(g, cycle, len);
		free(cycle);
		rc = FG_EXIT_CYCLE;
	}
	return rc;
}

/*
 * Mark every node reachable from src over edges that order with seen[] =
 * stamp, recording in parent[] the node it was reached from.  Returns the
 * number reached.
 */
int fg_reach(const struct fg_graph *g, int src, int *parent, int *seen, int stamp)
{
	int *queue = fg_xmalloc(sizeof(int) * (size_t)(g->nnodes + 1));
	int head = 0, tail = 0, i, count = 0;

	seen[src] = stamp;
	parent[src] = -1;
	queue[tail++] = src;
	while (head < tail) {
		int u = queue[head++];

		for (i = 0; i < g->nodes[u].nout; i++) {
			int e = g->nodes[u].out[i], v = g->edges[e].to;

			if (orders(g, e) && seen[v] != stamp) {
				seen[v] = stamp;
				parent[v] = u;
				queue[tail++] = v;
				count++;
			}
		}
	}
	free(queue);
	return count;
}

/*
 * Call fn(g, a, b, arg) for every pair of eligible superblocks where a needs
 * b, directly or through any other nodes; return the sum of what fn returns.
 */
int fg_for_each_need(const struct fg_graph *g, fg_need_fn fn, void *arg)
{
	int *parent = fg_xmalloc(sizeof(int) * (size_t)(g->nnodes + 1));
	int *seen = fg_xmalloc(sizeof(int) * (size_t)(g->nnodes + 1));
	int a, b, sum = 0;

	for (a = 0; a < g->nnodes; a++) {
		if (g->nodes[a].kind != FG_SB || !g->nodes[a].eligible)
			continue;
		fg_reach(g, a, parent, seen, a + 1);
		for (b = 0; b < g->nnodes; b++)
			if (b != a && seen[b] == a + 1 && g->nodes[b].kind == FG_SB &&
			    g->nodes[b].eligible)
				sum += fn(g, a, b, arg);
	}
	free(parent);
	free(seen);
	return sum;
}

/* The shortest path from -> to, as node indices; returns its length or 0. */
int fg_path(const struct fg_graph *g, int from, int to, int **path)
{
	int *parent = fg_xmalloc(sizeof(int) * (size_t)(g->nnodes + 1));
	int *seen = fg_xmalloc(sizeof(int) * (size_t)(g->nnodes + 1));
	int len = 0, v;

	fg_reach(g, from, parent, seen, 1);
	if (seen[to] == 1) {
		int i;

		for (v = to; v >= 0; v = parent[v])
			len++;
		*path = fg_xmalloc(sizeof(int) * (size_t)len);
		i = len;
		for (v = to; v >= 0; v = parent[v])
			(*path)[--i] = v;
	}
	free(parent);
	free(seen);
	return len;
}

/*
 * The eligible superblocks sorted by freeze_idx (or list_idx), as node
 * indices.  Eligible nodes without an index sort last, in file order.
 */
static const struct fg_graph *sort_graph;
static bool sort_by_list;

static int cmp_idx(const void *a, const void *b)
{
	const struct fg_node *x = &sort_graph->nodes[*(const int *)a];
	const struct fg_node *y = &sort_graph->nodes[*(const int *)b];
	int kx = sort_by_list ? x->list_idx : x->freeze_idx;
	int ky = sort_by_list ? y->list_idx : y->freeze_idx;

	if (kx < 0 || ky < 0)
		return kx < 0 ? (ky < 0 ? *(const int *)a - *(const int *)b : 1) : -1;
	return kx - ky;
}

int *fg_eligible_by(const struct fg_graph *g, bool by_list, int *count)
{
	int *v = fg_xmalloc(sizeof(int) * (size_t)(g->nnodes + 1));
	int i;

	*count = 0;
	for (i = 0; i < g->nnodes; i++)
		if (g->nodes[i].kind == FG_SB && g->nodes[i].eligible)
			v[(*count)++] = i;
	sort_graph = g;
	sort_by_list = by_list;
	qsort(v, (size_t)*count, sizeof(int), cmp_idx);
	return v;
}

/*
 * The nodes that write through a node user space serves (served="..."),
 * over edges that order, and the served nodes themselves: the superblocks
 * among them are frozen in the early phase, before the task freezer.
 */
bool *fg_needs_served(const struct fg_graph *g)
{
	bool *needs = fg_xmalloc(sizeof(bool) * (size_t)(g->nnodes + 1));
	int *queue = fg_xmalloc(sizeof(int) * (size_t)(g->nnodes + 1));
	int head = 0, tail = 0, i;

	for (i = 0; i < g->nnodes; i++) {
		needs[i] = g->nodes[i].served != NULL;
		if (needs[i])
			queue[tail++] = i;
	}
	while (head < tail) {
		int v = queue[head++];

		for (i = 0; i < g->nodes[v].nin; i++) {
			int e = g->nodes[v].in[i], u = g->edges[e].from;

			if (orders(g, e) && !needs[u]) {
				needs[u] = true;
				queue[tail++] = u;
			}
		}
	}
	free(queue);
	return needs;
}

/* With nothing ready, an unsorted node that is not reached, or -1. */
static int unstick(const bool *reached, const bool *done, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!done[i] && !reached[i])
			return i;
	return -1;
}

/*
 * Kahn's algorithm with the kernel's tie-break, over the edges that order;
 * NULL if there is a cycle that matters.
 */
int *fg_canonical_order(const struct fg_graph *g, int *count)
{
	int n = g->nnodes, ndone = 0, i, j, k = 0;
	int *indeg = fg_xmalloc(sizeof(int) * (size_t)(n + 1));
	int *ready = fg_xmalloc(sizeof(int) * (size_t)(n + 1));
	int *order = fg_xmalloc(sizeof(int) * (size_t)(n + 1));
	bool *done = fg_xmalloc(sizeof(bool) * (size_t)(n + 1));
	bool *reached = fg_reached(g);
	int nready = 0;

	for (i = 0; i < g->nedges; i++)
		if (orders(g, i))
			indeg[g->edges[i].to]++;
	for (i = 0; i < n; i++)
		if (!indeg[i])
			ready[nready++] = i;
	for (;;) {
		int pick = -1;

		if (!nready) {
			i = unstick(reached, done, n);
			if (i < 0)
				break;
			ready[nready++] = i;
		}

		/* Ordering-only nodes first, then the newest eligible superblock. */
		for (j = 0; j < nready; j++) {
			const struct fg_node *c = &g->nodes[ready[j]];

			if (!(c->kind == FG_SB && c->eligible)) {
				pick = j;
				break;
			}
			if (pick < 0 || c->list_idx < g->nodes[ready[pick]].list_idx)
				pick = j;
		}
		i = ready[pick];
		ready[pick] = ready[--nready];
		done[i] = true;
		ndone++;
		if (g->nodes[i].kind == FG_SB && g->nodes[i].eligible)
			order[k++] = i;
		for (j = 0; j < g->nodes[i].nout; j++) {
			int e = g->nodes[i].out[j], v = g->edges[e].to;

			if (orders(g, e) && !done[v] && !--indeg[v])
				ready[nready++] = v;
		}
	}
	free(indeg);
	free(ready);
	free(done);
	free(reached);
	if (ndone < n) {
		free(order);
		return NULL;
	}
	*count = k;
	return order;
}
