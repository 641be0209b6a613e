// SPDX-License-Identifier: GPL-2.0
/* Red-black tree: insert and erase rebalancing after CLRS, chapter 13. */
#include "rbtree.h"

static void rb_rotate_left(struct rb_node *x, struct rb_root *root)
{
	struct rb_node *y = x->right;

	x->right = y->left;
	if (y->left)
		y->left->parent = x;
	y->parent = x->parent;
	if (!x->parent)
		root->rb_node = y;
	else if (x == x->parent->left)
		x->parent->left = y;
	else
		x->parent->right = y;
	y->left = x;
	x->parent = y;
}

static void rb_rotate_right(struct rb_node *x, struct rb_root *root)
{
	struct rb_node *y = x->left;

	x->left = y->right;
	if (y->right)
		y->right->parent = x;
	y->parent = x->parent;
	if (!x->parent)
		root->rb_node = y;
	else if (x == x->parent->right)
		x->parent->right = y;
	else
		x->parent->left = y;
	y->right = x;
	x->parent = y;
}

void rb_insert_color(struct rb_node *z, struct rb_root *root)
{
	while (z->parent && z->parent->red) {
		struct rb_node *p = z->parent, *g = p->parent, *u;

		if (p == g->left) {
			u = g->right;
			if (u && u->red) {
				p->red = 0;
				u->red = 0;
				g->red = 1;
				z = g;
				continue;
			}
			if (z == p->right) {
				z = p;
				rb_rotate_left(z, root);
				p = z->parent;
			}
			p->red = 0;
			g->red = 1;
			rb_rotate_right(g, root);
		} else {
			u = g->left;
			if (u && u->red) {
				p->red = 0;
				u->red = 0;
				g->red = 1;
				z = g;
				continue;
			}
			if (z == p->left) {
				z = p;
				rb_rotate_right(z, root);
				p = z->parent;
			}
			p->red = 0;
			g->red = 1;
			rb_rotate_left(g, root);
		}
	}
	root->rb_node->red = 0;
}

/* Replace subtree @u by subtree @v (v may be NULL). */
static void rb_transplant(struct rb_node *u, struct rb_node *v, struct rb_root *root)
{
	if (!u->parent)
		root->rb_node = v;
	else if (u == u->parent->left)
		u->parent->left = v;
	else
		u->parent->right = v;
	if (v)
		v->parent = u->parent;
}

static struct rb_node *rb_min(struct rb_node *n)
{
	while (n->left)
		n = n->left;
	return n;
}

static inline int is_red(const struct rb_node *n)
{
	return n && n->red;
}

/* CLRS RB-DELETE-FIXUP with an explicit parent, since x may be NULL. */
static void rb_erase_fixup(struct rb_node *x, struct rb_node *xp, struct rb_root *root)
{
	struct rb_node *w;

	while (x != root->rb_node && !is_red(x)) {
		if (x == xp->left) {
			w = xp->right;
			if (is_red(w)) {
				w->red = 0;
				xp->red = 1;
				rb_rotate_left(xp, root);
				w = xp->right;
			}
			if (!is_red(w->left) && !is_red(w->right)) {
				w->red = 1;
				x = xp;
				xp = x->parent;
				continue;
			}
			if (!is_red(w->right)) {
				w->left->red = 0;
				w->red = 1;
				rb_rotate_right(w, root);
				w = xp->right;
			}
			w->red = xp->red;
			xp->red = 0;
			if (w->right)
				w->right->red = 0;
			rb_rotate_left(xp, root);
			x = root->rb_node;
		} else {
			w = xp->left;
			if (is_red(w)) {
				w->red = 0;
				xp->red = 1;
				rb_rotate_right(xp, root);
				w = xp->left;
			}
			if (!is_red(w->left) && !is_red(w->right)) {
				w->red = 1;
				x = xp;
				xp = x->parent;
				continue;
			}
			if (!is_red(w->left)) {
				w->right->red = 0;
				w->red = 1;
				rb_rotate_left(w, root);
				w = xp->left;
			}
			w->red = xp->red;
			xp->red = 0;
			if (w->left)
				w->left->red = 0;
			rb_rotate_right(xp, root);
			x = root->rb_node;
		}
	}
	if (x)
		x->red = 0;
}

void rb_erase(struct rb_node *z, struct rb_root *root)
{
	struct rb_node *x, *xp, *y = z;
	int y_red = y->red;

	if (!z->left) {
		x = z->right;
		xp = z->parent;
		rb_transplant(z, z->right, root);
	} else if (!z->right) {
		x = z->left;
		xp = z->parent;
		rb_transplant(z, z->left, root);
	} else {
		y = rb_min(z->right);
		y_red = y->red;
		x = y->right;
		if (y->parent == z) {
			xp = y;
		} else {
			xp = y->parent;
			rb_transplant(y, y->right, root);
			y->right = z->right;
			y->right->parent = y;
		}
		rb_transplant(z, y, root);
		y->left = z->left;
		y->left->parent = y;
		y->red = z->red;
	}
	if (!y_red)
		rb_erase_fixup(x, xp, root);
}

struct rb_node *rb_first(const struct rb_root *root)
{
	return root->rb_node ? rb_min(root->rb_node) : NULL;
}

struct rb_node *rb_last(const struct rb_root *root)
{
	struct rb_node *n = root->rb_node;

	if (!n)
		return NULL;
	while (n->right)
		n = n->right;
	return n;
}

struct rb_node *rb_next(const struct rb_node *n)
{
	const struct rb_node *p;

	if (n->right)
		return rb_min(n->right);
	p = n->parent;
	while (p && n == p->right) {
		n = p;
		p = p->parent;
	}
	return (struct rb_node *)p;
}

static int rb_check_node(const struct rb_node *n, const struct rb_node *parent, size_t *count)
{
	int lh, rh;

	if (!n)
		return 1;
	if (n->parent != parent)
		return -1;
	if (n->red && (is_red(n->left) || is_red(n->right)))
		return -1;
	(*count)++;
	lh = rb_check_node(n->left, n, count);
	rh = rb_check_node(n->right, n, count);
	if (lh < 0 || rh < 0 || lh != rh)
		return -1;
	return lh + !n->red;
}

int rb_check(const struct rb_root *root, size_t *count)
{
	size_t c = 0;
	int h;

	if (root->rb_node && root->rb_node->red)
		return -1;
	h = rb_check_node(root->rb_node, NULL, &c);
	if (count)
		*count = c;
	return h;
}
