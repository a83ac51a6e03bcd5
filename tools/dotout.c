// SPDX-License-Identifier: GPL-2.0
/* Writing a graph as DOT, in the schema of the kernel's dump. */
#include <stdio.h>

#include "fsgraph.h"

/* A DOT string: quotes and backslashes escaped. */
static void put_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
	fputc('"', f);
}

void fg_write_dot(const struct fg_graph *g, FILE *f)
{
	int i;

	fprintf(f, "digraph fs_freeze_graph {\n  graph [schema=\"%d.%d\", order=",
		FG_SCHEMA_MAJOR, FG_SCHEMA_MINOR);
	put_str(f, g->order);
	fprintf(f, ", last_freeze=");
	put_str(f, g->last_freeze);
	fprintf(f, "];\n");
	for (i = 0; i < g->nnodes; i++) {
		const struct fg_node *n = &g->nodes[i];

		fprintf(f, "  ");
		put_str(f, n->id);
		fprintf(f, " [kind=\"%s\", label=", n->kind == FG_SB ? "sb" : "bdev");
		put_str(f, n->label);
		if (n->kind == FG_SB) {
			fprintf(f, ", fstype=");
			put_str(f, n->fstype);
		}
		fprintf(f, ", dev=");
		put_str(f, n->dev);
		if (n->kind == FG_SB)
			fprintf(f, ", list_pos=%d, eligible=%d, freeze_idx=%d, list_idx=%d, "
				"result=\"%s\", errno=%d, freeze_ns=%lld",
				n->list_pos, n->eligible, n->freeze_idx, n->list_idx,
				n->result ? n->result : "none", n->err, n->freeze_ns);
		else
			fprintf(f, ", flushed=%d", n->flushed);
		fprintf(f, "];\n");
	}
	for (i = 0; i < g->nedges; i++) {
		fprintf(f, "  ");
		put_str(f, g->nodes[g->edges[i].from].id);
		fprintf(f, " -> ");
		put_str(f, g->nodes[g->edges[i].to].id);
		fprintf(f, " [kind=");
		put_str(f, g->edges[i].kind);
		fprintf(f, "%s];\n", g->edges[i].ro ? ", ro=1" : "");
	}
	fprintf(f, "}\n");
}
