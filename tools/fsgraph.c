// SPDX-License-Identifier: GPL-2.0
/* fsgraph: the command line. */
#include <stdio.h>
#include <string.h>

#include "fsgraph.h"

static const char usage[] =
"usage: fsgraph COMMAND [ARGS]\n"
"\n"
"Check, compare and render the freeze graphs of /sys/kernel/debug/fs_freeze_graph.\n"
"An edge A -> B means that A needs B: A is frozen before B.  It reads the\n"
"dump's schema 1.x (schema=\"MAJOR.MINOR\" on the graph; none means 1.0),\n"
"and refuses any other major version.\n"
"\n"
"commands:\n"
"  check FILE [--sequence SEQ [--exact]] [--order dag|list]\n"
"        verify a dump: acyclic, freeze_idx/list_idx well formed, every\n"
"        superblock frozen before those it needs, the early phase (what\n"
"        writes through storage user space serves) first, ties newest\n"
"        first; with --sequence, the node ids in SEQ (as the kernel logged\n"
"        its freezes, in the order they completed) must name every\n"
"        eligible superblock once, in an order the graph allows; with\n"
"        --exact, or in list order (the dump's \"order\" attribute, or\n"
"        --order), exactly the dump's order\n"
"  order [--brief] FILE\n"
"        the DAG order and the list order side by side, and each dependency\n"
"        that list order violates, with the path behind it; --brief prints\n"
"        four lines: \"dag: DEV...\", \"list: DEV...\", \"violations: N\",\n"
"        \"violated: A>B...\" (A needs B, and list order freezes B first)\n"
"  oracle [--root DIR]\n"
"        rebuild the graph from sysfs, mountinfo, loop backing files, the\n"
"        ext4 journal device and xfs logdev/rtdev, and print it as DOT\n"
"  diff [--subset] A B\n"
"        compare the nodes on edges and the edges of two graphs; with\n"
"        --subset, only report what A has and B lacks\n"
"  render FILE -o OUT.svg|OUT.png\n"
"        draw the graph; edges that list order violates are red\n"
"\n"
"exit status:\n"
"  0  success: the check passed, the graphs agree\n"
"  1  the check failed, or diff found a difference\n"
"  2  bad usage\n"
"  3  bad input: missing file, malformed DOT, or not the dump's schema\n"
"  4  the graph has a dependency cycle\n";

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} cmds[] = {
		{ "check", fg_cmd_check }, { "order", fg_cmd_order },
		{ "oracle", fg_cmd_oracle }, { "diff", fg_cmd_diff },
		{ "render", fg_cmd_render },
	};
	size_t i;
	int rc;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(usage, argc < 2 ? stderr : stdout);
		return argc < 2 ? FG_EXIT_USAGE : FG_EXIT_OK;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (strcmp(argv[1], cmds[i].name))
			continue;
		rc = cmds[i].fn(argc - 1, argv + 1);
		if (rc == FG_EXIT_USAGE)
			fprintf(stderr, "fsgraph %s: bad usage; see fsgraph --help\n", argv[1]);
		return rc;
	}
	fprintf(stderr, "fsgraph: unknown command '%s'; see fsgraph --help\n", argv[1]);
	return FG_EXIT_USAGE;
}
