// SPDX-License-Identifier: GPL-2.0
/*
 * The dump's schema (DESIGN.md, "The debugfs dump"), checked on what cgraph
 * parsed.  Strict mode is for whole dumps (the kernel's, the oracle's); the
 * lax mode only needs node ids and edge kinds, for hand-written graphs such
 * as a topology's expected edges.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsgraph.h"

static const char *const edge_kinds[] = {
	"mount", "journal", "log", "rt", "holder", "loop", "part", NULL
};
static const char *const results[] = {
	"none", "frozen", "skipped-readonly", "skipped-noflag",
	"skipped-userfrozen", "failed", "timeout", "skipped-served", NULL
};
static const char *const phases[] = { "none", "early", "late", NULL };
static const char *const orders[] = { "dag", "list", NULL };
static const char *const last_freezes[] = {
	"none", "ok", "failed", "cycle", "timeout", "wakeup", "refused", NULL
};

static bool in_set(const char *v, const char *const *set)
{
	for (; *set; set++)
		if (!strcmp(v, *set))
			return true;
	return false;
}

/* An attribute's value, or NULL when it is absent or empty. */
static const char *attr(void *obj, const char *name)
{
	char *v = agget(obj, (char *)name);

	return v && *v ? v : NULL;
}

static bool valid_id(const char *id)
{
	unsigned int maj, min;
	char tail;

	if (sscanf(id, "sb:%u:%u%c", &maj, &min, &tail) == 2)
		return true;
	return sscanf(id, "bdev:%u:%u%c", &maj, &min, &tail) == 2;
}

static int get_int(struct fg_graph *g, Agnode_t *an, const char *name,
		   long long lo, long long *out)
{
	const char *v = attr(an, name);
	char *end;

	if (!v) {
		fg_err(g, "node \"%s\": no %s attribute", agnameof(an), name);
		return -1;
	}
	*out = strtoll(v, &end, 10);
	if (*end || *out < lo) {
		fg_err(g, "node \"%s\": %s=\"%s\" is not a number >= %lld",
		       agnameof(an), name, v, lo);
		return -1;
	}
	return 0;
}

static int import_sb(struct fg_graph *g, Agnode_t *an, struct fg_node *n)
{
	long long v[7];
	const char *r = attr(an, "result"), *p = attr(an, "phase");

	if (get_int(g, an, "list_pos", 0, &v[0]) || get_int(g, an, "eligible", 0, &v[1]) ||
	    get_int(g, an, "freeze_idx", -1, &v[2]) || get_int(g, an, "list_idx", -1, &v[3]) ||
	    get_int(g, an, "errno", 0, &v[4]) || get_int(g, an, "freeze_ns", 0, &v[5]))
		return -1;
	/* Optional: new in 1.3. */
	v[6] = 0;
	if (attr(an, "freeze_start_ns") && get_int(g, an, "freeze_start_ns", 0, &v[6]))
		return -1;
	if (v[1] > 1) {
		fg_err(g, "node \"%s\": eligible must be 0 or 1", n->id);
		return -1;
	}
	if (!r || !in_set(r, results)) {
		fg_err(g, "node \"%s\": result=\"%s\" is not one of none, frozen, "
		       "skipped-readonly, skipped-noflag, skipped-userfrozen, failed, timeout, "
		       "skipped-served",
		       n->id, r ? r : "");
		return -1;
	}
	/* Optional: dumps before the two-phase freeze lack it. */
	if (p && !in_set(p, phases)) {
		fg_err(g, "node \"%s\": phase=\"%s\" is not none, early or late", n->id, p);
		return -1;
	}
	n->phase = p ? fg_xstrdup(p) : NULL;
	n->list_pos = (int)v[0];
	n->eligible = (int)v[1];
	n->freeze_idx = (int)v[2];
	n->list_idx = (int)v[3];
	n->err = (int)v[4];
	n->freeze_ns = v[5];
	n->freeze_start_ns = v[6];
	n->result = fg_xstrdup(r);
	return 0;
}

/* flushed=0|1: optional, since dumps before the raw block device flush lack it. */
static int import_bdev(struct fg_graph *g, Agnode_t *an, struct fg_node *n)
{
	const char *f = attr(an, "flushed");

	if (f && strcmp(f, "0") && strcmp(f, "1")) {
		fg_err(g, "node \"%s\": flushed=\"%s\" is not 0 or 1", n->id, f);
		return -1;
	}
	n->flushed = f && !strcmp(f, "1");
	return 0;
}

static int import_node(struct fg_graph *g, Agnode_t *an, bool strict)
{
	const char *id = agnameof(an), *k, *v;
	struct fg_node *n;
	int i;

	if (strict && !valid_id(id)) {
		fg_err(g, "node \"%s\": id is not sb:MAJ:MIN or bdev:MAJ:MIN", id);
		return -1;
	}
	i = fg_add_node(g, id); /* may move g->nodes */
	n = &g->nodes[i];
	n->ag = an;
	if ((v = attr(an, "label")))
		n->label = fg_xstrdup(v);
	if ((v = attr(an, "fstype")))
		n->fstype = fg_xstrdup(v);
	if ((v = attr(an, "dev")))
		n->dev = fg_xstrdup(v);
	if ((v = attr(an, "served")))
		n->served = fg_xstrdup(v);
	if (!strict)
		return 0;
	k = attr(an, "kind");
	if (!k || strcmp(k, n->kind == FG_SB ? "sb" : "bdev")) {
		fg_err(g, "node \"%s\": kind=\"%s\" does not match its id", id, k ? k : "");
		return -1;
	}
	return n->kind == FG_SB ? import_sb(g, an, n) : import_bdev(g, an, n);
}

/*
 * schema="MAJOR.MINOR": a newer MINOR only adds attributes, which are
 * ignored; another MAJOR changed what they mean, and is refused.  Dumps
 * from before the schema was versioned have none: 1.0.
 */
static int import_schema(struct fg_graph *g)
{
	const char *v = attr(g->ag, "schema");
	int major = 1, minor = 0;
	char tail;

	if (v && sscanf(v, "%d.%d%c", &major, &minor, &tail) != 2) {
		fg_err(g, "graph: schema=\"%s\" is not MAJOR.MINOR", v);
		return -1;
	}
	if (major != FG_SCHEMA_MAJOR) {
		fg_err(g, "graph: schema %d.%d: this fsgraph reads schema %d.x only",
		       major, minor, FG_SCHEMA_MAJOR);
		return -1;
	}
	g->schema_major = major;
	g->schema_minor = minor;
	return 0;
}

/*
 * complete=0|1 and lost_edges=N (1.2): the kernel went on without edges it
 * could not record.  Both or neither, and they must agree.
 */
static int import_lost(struct fg_graph *g)
{
	const char *c = attr(g->ag, "complete"), *n = attr(g->ag, "lost_edges");
	char tail;

	if (!c && !n)
		return 0;
	if (!c || !n || (strcmp(c, "0") && strcmp(c, "1")) ||
	    sscanf(n, "%d%c", &g->lost_edges, &tail) != 1 || g->lost_edges < 0 ||
	    !strcmp(c, "1") != !g->lost_edges) {
		fg_err(g, "graph: complete=\"%s\" and lost_edges=\"%s\" do not agree",
		       c ? c : "", n ? n : "");
		return -1;
	}
	return 0;
}

static int import_graph_attrs(struct fg_graph *g, bool strict)
{
	const char *o = attr(g->ag, "order"), *l = attr(g->ag, "last_freeze");
	const char *a = attr(g->ag, "async"), *p = attr(g->ag, "freeze_phase_ns");
	char tail;

	if (import_schema(g))
		return -1;

	if (strict && (!o || !in_set(o, orders))) {
		fg_err(g, "graph: order=\"%s\" is not dag or list", o ? o : "");
		return -1;
	}
	if (strict && (!l || !in_set(l, last_freezes))) {
		fg_err(g, "graph: last_freeze=\"%s\" is not none, ok, failed, cycle, timeout, wakeup or refused",
		       l ? l : "");
		return -1;
	}
	/* async=0|1 and freeze_phase_ns=N: optional, new in 1.3. */
	if (a && strcmp(a, "0") && strcmp(a, "1")) {
		fg_err(g, "graph: async=\"%s\" is not 0 or 1", a);
		return -1;
	}
	g->async = a && !strcmp(a, "1");
	if (p && (sscanf(p, "%lld%c", &g->freeze_phase_ns, &tail) != 1 || g->freeze_phase_ns < 0)) {
		fg_err(g, "graph: freeze_phase_ns=\"%s\" is not a number >= 0", p);
		return -1;
	}
	g->order = fg_xstrdup(o ? o : "dag");
	g->last_freeze = fg_xstrdup(l ? l : "none");
	return import_lost(g);
}

int fg_schema_import(struct fg_graph *g, bool strict)
{
	Agnode_t *an;
	Agedge_t *ae;

	if (import_graph_attrs(g, strict))
		return FG_EXIT_INPUT;
	for (an = agfstnode(g->ag); an; an = agnxtnode(g->ag, an))
		if (import_node(g, an, strict))
			return FG_EXIT_INPUT;
	for (an = agfstnode(g->ag); an; an = agnxtnode(g->ag, an)) {
		for (ae = agfstout(g->ag, an); ae; ae = agnxtout(g->ag, ae)) {
			const char *k = attr(ae, "kind");
			int from = fg_find(g, agnameof(agtail(ae)));
			int to = fg_find(g, agnameof(aghead(ae)));

			if (strict && (!k || !in_set(k, edge_kinds))) {
				fg_err(g, "edge \"%s\" -> \"%s\": kind=\"%s\" is not one of "
				       "mount, journal, log, rt, holder, loop, part",
				       agnameof(agtail(ae)), agnameof(aghead(ae)), k ? k : "");
				return FG_EXIT_INPUT;
			}
			const char *ro = attr(ae, "ro");

			if (strict && ro && strcmp(ro, "0") && strcmp(ro, "1")) {
				fg_err(g, "edge \"%s\" -> \"%s\": ro=\"%s\" is not 0 or 1",
				       agnameof(agtail(ae)), agnameof(aghead(ae)), ro);
				return FG_EXIT_INPUT;
			}
			int e = fg_add_edge(g, from, to, k); /* may move g->edges */

			g->edges[e].ag = ae;
			g->edges[e].ro = ro && !strcmp(ro, "1");
		}
	}
	return FG_EXIT_OK;
}
