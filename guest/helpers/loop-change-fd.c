// SPDX-License-Identifier: GPL-2.0
/*
 * loop-change-fd LOOPDEV FILE: switch a bound, read-only loop device to a
 * new backing file of the same size with the LOOP_CHANGE_FD ioctl, which
 * util-linux's losetup does not offer.  For the guests' topologies.
 */
#include <fcntl.h>
#include <linux/loop.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <sys/ioctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int loop, file;

	if (argc != 3) {
		fprintf(stderr, "usage: loop-change-fd LOOPDEV FILE\n");
		return 2;
	}
	loop = open(argv[1], O_RDONLY);
	if (loop < 0) {
		fprintf(stderr, "loop-change-fd: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	file = open(argv[2], O_RDONLY);
	if (file < 0) {
		fprintf(stderr, "loop-change-fd: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	if (ioctl(loop, LOOP_CHANGE_FD, file)) {
		fprintf(stderr, "loop-change-fd: LOOP_CHANGE_FD %s -> %s: %s\n",
			argv[1], argv[2], strerror(errno));
		return 1;
	}
	close(file);
	close(loop);
	return 0;
}
