// SPDX-License-Identifier: GPL-2.0
/*
 * fsgraph render FILE -o OUT.svg|OUT.png: lay a dump out with graphviz.
 * Superblocks are boxes (blue when they are frozen on suspend, grey when
 * skipped), block devices khaki ellipses; each superblock is labelled with
 * its freeze position, the edges that list order violates are red, and
 * read-only edges (ro=1), which order nothing, are dashed.
 * Superblocks that are skipped and on no edge (proc, sysfs...) are left out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <graphviz/gvc.h>

#include "fsgraph.h"

static void set(void *obj, const char *name, const char *value)
{
	agsafeset(obj, (char *)name, (char *)value, "");
}

static void style_node(struct fg_node *n)
{
	char label[512];
	const char *text = n->label ? n->label : n->id;

	if (n->kind == FG_SB && n->eligible)
		snprintf(label, sizeof(label), "#%d %s\n%s\nlist #%d", n->freeze_idx + 1,
			 text, n->id, n->list_idx + 1);
	else if (n->kind == FG_SB)
		snprintf(label, sizeof(label), "%s\n%s\n%s", text, n->id,
			 n->result ? n->result : "");
	else
		snprintf(label, sizeof(label), "%s\n%s", text, n->id);
	set(n->ag, "label", label);
	set(n->ag, "style", "filled");
	set(n->ag, "shape", n->kind == FG_SB ? "box" : "ellipse");
	set(n->ag, "fillcolor", n->kind == FG_BDEV ? "khaki" :
	    n->eligible ? "lightblue" : "gray90");
}

static const char *format_of(const char *out)
{
	const char *dot = strrchr(out, '.');

	if (dot && !strcmp(dot, ".svg"))
		return "svg";
	if (dot && !strcmp(dot, ".png"))
		return "png";
	return NULL;
}

int fg_cmd_render(int argc, char **argv)
{
	const char *in = NULL, *out = NULL, *fmt;
	struct fg_graph g;
	char title[256];
	bool *marks;
	GVC_t *gvc;
	int i, rc;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (!in && argv[i][0] != '-')
			in = argv[i];
		else
			return FG_EXIT_USAGE;
	}
	if (!in || !out)
		return FG_EXIT_USAGE;
	fmt = format_of(out);
	if (!fmt) {
		fprintf(stderr, "%s: output must end in .svg or .png\n", out);
		return FG_EXIT_USAGE;
	}
	fg_init(&g, in);
	rc = fg_load(&g, in, true);
	if (rc)
		goto out;
	marks = fg_xmalloc(sizeof(bool) * (size_t)(g.nedges + 1));
	fg_list_violations(&g, marks);
	for (i = 0; i < g.nnodes; i++) {
		struct fg_node *n = &g.nodes[i];

		/* proc, sysfs and the like: nothing to say, and in the way. */
		if (n->kind == FG_SB && !n->eligible && !n->nin && !n->nout) {
			agdelnode(g.ag, n->ag);
			n->ag = NULL;
			continue;
		}
		style_node(n);
	}
	for (i = 0; i < g.nedges; i++) {
		set(g.edges[i].ag, "label", g.edges[i].kind);
		/* A read-only edge orders nothing: dashed. */
		set(g.edges[i].ag, "style", g.edges[i].ro ? "dashed" : "solid");
		set(g.edges[i].ag, "color", marks[i] ? "red" : "black");
		set(g.edges[i].ag, "penwidth", marks[i] ? "2.5" : "1");
	}
	free(marks);
	snprintf(title, sizeof(title), "freeze order: %s, last freeze: %s "
		 "(red: dependencies that list order breaks)", g.order, g.last_freeze);
	set(g.ag, "label", title);
	set(g.ag, "rankdir", "TB");

	gvc = gvContext();
	if (gvLayout(gvc, g.ag, "dot") || gvRenderFilename(gvc, g.ag, fmt, out)) {
		fg_err(&g, "graphviz could not render %s", out);
		rc = FG_EXIT_INPUT;
	}
	gvFreeLayout(gvc, g.ag);
	gvFreeContext(gvc);
out:
	fg_free(&g);
	return rc;
}
