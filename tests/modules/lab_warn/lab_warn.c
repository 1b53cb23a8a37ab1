// SPDX-License-Identifier: GPL-2.0
/*
 * lab_warn: a module whose only job is to WARN when loaded, so that the
 * lab's host tests can prove the runner fails a run whose console shows a
 * kernel warning even though the job itself succeeded.
 */
#include <linux/bug.h>
#include <linux/module.h>

static int __init lab_warn_init(void)
{
	WARN(1, "lab_warn: deliberate warning for the runner's own test\n");
	return 0;
}

static void __exit lab_warn_exit(void)
{
}

module_init(lab_warn_init);
module_exit(lab_warn_exit);
MODULE_DESCRIPTION("Deliberate WARN for the lab runner's tests");
MODULE_LICENSE("GPL");
