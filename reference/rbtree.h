/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A red-black tree with the Linux kernel's interface (include/linux/rbtree.h):
 * the caller walks down and links the node (rb_link_node), then rebalances
 * (rb_insert_color).  The seed keeps the -deadline run queue and the
 * pushable-task list in such trees, so the reference does too, with the same
 * calls, and a reviewer can read sched_dl.c against the patch unchanged.
 *
 * Written from the textbook algorithm (CLRS ch. 13), not copied.
 */
#ifndef DLB_REF_RBTREE_H
#define DLB_REF_RBTREE_H

#include <stdbool.h>
#include <stddef.h>

struct rb_node {
	struct rb_node *parent;
	struct rb_node *left, *right;
	int red;
};

struct rb_root {
	struct rb_node *rb_node;
};

#define RB_ROOT			((struct rb_root){ NULL })
/* A node not in any tree points to itself (as the kernel's RB_CLEAR_NODE). */
#define RB_CLEAR_NODE(n)	((n)->parent = (n))
#define RB_EMPTY_NODE(n)	((n)->parent == (n))
#define RB_EMPTY_ROOT(r)	((r)->rb_node == NULL)

#define rb_entry(ptr, type, member)	\
	((type *)((char *)(ptr) - offsetof(type, member)))

static inline void rb_link_node(struct rb_node *node, struct rb_node *parent,
				struct rb_node **link)
{
	node->parent = parent;
	node->left = node->right = NULL;
	node->red = 1;
	*link = node;
}

void rb_insert_color(struct rb_node *node, struct rb_root *root);
void rb_erase(struct rb_node *node, struct rb_root *root);
struct rb_node *rb_first(const struct rb_root *root);
struct rb_node *rb_last(const struct rb_root *root);
struct rb_node *rb_next(const struct rb_node *node);

/*
 * Structural check for tests and --check: parent links, no red node with
 * a red child, equal black height on every path.  Returns the black height,
 * or -1 if broken.  @count gets the number of nodes.
 */
int rb_check(const struct rb_root *root, size_t *count);

#endif
