// SPDX-License-Identifier: GPL-2.0
/*
 * The in-memory freeze graph, and reading it from DOT with graphviz's cgraph.
 * There is no hand-written DOT parser here: cgraph parses, and this file only
 * checks what cgraph hands back against the dump's schema.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsgraph.h"

/* Every allocation failure ends the program, with this one message. */
void fg_oom(void)
{
	fprintf(stderr, "fsgraph: out of memory\n");
	exit(FG_EXIT_INPUT);
}

void *fg_xmalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (!p)
		fg_oom();
	return p;
}

char *fg_xstrdup(const char *s)
{
	char *p = fg_xmalloc(strlen(s) + 1);

	return strcpy(p, s);
}

static void *xgrow(void *p, int *cap, int need, size_t size)
{
	if (need <= *cap)
		return p;
	*cap = *cap ? *cap * 2 : 16;
	if (*cap < need)
		*cap = need;
	p = realloc(p, (size_t)*cap * size);
	if (!p)
		fg_oom();
	return p;
}

/* One line on stderr, naming the file. */
void fg_err(const struct fg_graph *g, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", g->file);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void fg_init(struct fg_graph *g, const char *file)
{
	memset(g, 0, sizeof(*g));
	g->file = file;
}

void fg_free(struct fg_graph *g)
{
	int i;

	for (i = 0; i < g->nnodes; i++) {
		struct fg_node *n = &g->nodes[i];

		free(n->id);
		free(n->label);
		free(n->fstype);
		free(n->dev);
		free(n->result);
		free(n->served);
		free(n->phase);
		free(n->out);
		free(n->in);
	}
	for (i = 0; i < g->nedges; i++)
		free(g->edges[i].kind);
	free(g->nodes);
	free(g->edges);
	free(g->hash);
	free(g->order);
	free(g->last_freeze);
	if (g->ag)
		agclose(g->ag);
	memset(g, 0, sizeof(*g));
}

static unsigned int hash_str(const char *s)
{
	unsigned int h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static void rehash(struct fg_graph *g)
{
	int i;

	free(g->hash);
	g->hcap = g->hcap ? g->hcap * 2 : 64;
	g->hash = fg_xmalloc(sizeof(int) * (size_t)g->hcap);
	for (i = 0; i < g->hcap; i++)
		g->hash[i] = -1;
	for (i = 0; i < g->nnodes; i++) {
		unsigned int h = hash_str(g->nodes[i].id) & (unsigned int)(g->hcap - 1);

		while (g->hash[h] >= 0)
			h = (h + 1) & (unsigned int)(g->hcap - 1);
		g->hash[h] = i;
	}
}

int fg_find(const struct fg_graph *g, const char *id)
{
	unsigned int h;

	if (!g->hcap)
		return -1;
	h = hash_str(id) & (unsigned int)(g->hcap - 1);
	while (g->hash[h] >= 0) {
		if (!strcmp(g->nodes[g->hash[h]].id, id))
			return g->hash[h];
		h = (h + 1) & (unsigned int)(g->hcap - 1);
	}
	return -1;
}

static enum fg_kind kind_of_id(const char *id)
{
	if (!strncmp(id, "sb:", 3))
		return FG_SB;
	if (!strncmp(id, "bdev:", 5))
		return FG_BDEV;
	return FG_OTHER;
}

/* Add a node, or return the index of the node that has this id. */
int fg_add_node(struct fg_graph *g, const char *id)
{
	struct fg_node *n;
	int i = fg_find(g, id);

	if (i >= 0)
		return i;
	g->nodes = xgrow(g->nodes, &g->ncap, g->nnodes + 1, sizeof(*g->nodes));
	n = &g->nodes[g->nnodes];
	memset(n, 0, sizeof(*n));
	n->id = fg_xstrdup(id);
	n->kind = kind_of_id(id);
	n->freeze_idx = n->list_idx = n->list_pos = -1;
	g->nnodes++;
	if (g->nnodes * 2 > g->hcap)
		rehash(g);
	else {
		unsigned int h = hash_str(id) & (unsigned int)(g->hcap - 1);

		while (g->hash[h] >= 0)
			h = (h + 1) & (unsigned int)(g->hcap - 1);
		g->hash[h] = g->nnodes - 1;
	}
	return g->nnodes - 1;
}

int fg_add_edge(struct fg_graph *g, int from, int to, const char *kind)
{
	struct fg_node *f = &g->nodes[from], *t = &g->nodes[to];

	g->edges = xgrow(g->edges, &g->ecap, g->nedges + 1, sizeof(*g->edges));
	g->edges[g->nedges].from = from;
	g->edges[g->nedges].to = to;
	g->edges[g->nedges].kind = fg_xstrdup(kind ? kind : "");
	g->edges[g->nedges].ro = false;
	g->edges[g->nedges].ag = NULL;
	f->out = xgrow(f->out, &f->outcap, f->nout + 1, sizeof(int));
	f->out[f->nout++] = g->nedges;
	t->in = xgrow(t->in, &t->incap, t->nin + 1, sizeof(int));
	t->in[t->nin++] = g->nedges;
	return g->nedges++;
}

/* The index of the edge from -> to of that kind, or -1. */
int fg_find_edge(const struct fg_graph *g, int from, int to, const char *kind)
{
	int i;

	if (from < 0 || to < 0)
		return -1;
	for (i = 0; i < g->nodes[from].nout; i++) {
		const struct fg_edge *e = &g->edges[g->nodes[from].out[i]];

		if (e->to == to && !strcmp(e->kind, kind))
			return g->nodes[from].out[i];
	}
	return -1;
}

bool fg_has_edge(const struct fg_graph *g, int from, int to, const char *kind)
{
	return fg_find_edge(g, from, to, kind) >= 0;
}

/* "sb:8:0 (ext4 vda)" style name for messages. */
const char *fg_name(const struct fg_node *n)
{
	static char buf[4][256];
	static int k;
	char *b = buf[k++ & 3];

	if (n->label && *n->label)
		snprintf(b, sizeof(buf[0]), "%s (%s)", n->id, n->label);
	else
		snprintf(b, sizeof(buf[0]), "%s", n->id);
	return b;
}

/*
 * cgraph reports parse errors through this, in pieces ("Error", ": ...");
 * gather the first message, on one line, for ours.
 */
static char parse_msg[512];

static int catch_agerr(char *msg)
{
	size_t len = strlen(parse_msg);

	if (len + 1 >= sizeof(parse_msg) || strchr(parse_msg, '\n'))
		return 0;	/* the first message is complete */
	snprintf(parse_msg + len, sizeof(parse_msg) - len, "%s", msg);
	return 0;
}

/* "Error: <stdin>: syntax error in line 3 near '}'\n" -> "syntax error ..." */
static const char *parse_error(void)
{
	char *p = parse_msg, *nl = strchr(parse_msg, '\n');

	if (nl)
		*nl = '\0';
	if (!strncmp(p, "Error: ", 7))
		p += 7;
	if (!strncmp(p, "<stdin>: ", 9))
		p += 9;
	return *p ? p : "no graph found";
}

int fg_load(struct fg_graph *g, const char *path, bool strict)
{
	FILE *f;
	Agraph_t *ag;

	f = fopen(path, "r");
	if (!f) {
		fg_err(g, "cannot open: %s", strerror(errno));
		return FG_EXIT_INPUT;
	}
	parse_msg[0] = '\0';
	agseterr(AGERR);
	agseterrf(catch_agerr);
	ag = agread(f, NULL);
	fclose(f);
	agseterrf(NULL);
	if (!ag || agerrors()) {
		if (ag)
			agclose(ag);
		agreseterrors();
		fg_err(g, "malformed DOT: %s", parse_error());
		return FG_EXIT_INPUT;
	}
	g->ag = ag;
	if (!agisdirected(ag)) {
		fg_err(g, "malformed DOT: not a digraph");
		return FG_EXIT_INPUT;
	}
	return fg_schema_import(g, strict);
}
