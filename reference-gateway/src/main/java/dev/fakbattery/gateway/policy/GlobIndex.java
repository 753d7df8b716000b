package dev.fakbattery.gateway.policy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the first rule (in file order) whose tool glob matches a name, without allocating.
 * Exact names are hashed; {@code prefix*} and {@code *suffix} globs sit in character tries walked
 * once along the name, so lookup cost depends on the name's length, not on the number of rules.
 * Other globs ({@code a*b}, {@code ?}) are scanned in order.
 */
final class GlobIndex {

	static final int NONE = Integer.MAX_VALUE;

	private final Map<String, Integer> exact = new HashMap<>();
	private final Trie prefixes = new Trie();
	private final Trie suffixes = new Trie();
	private final List<String> generalGlobs = new ArrayList<>();
	private final List<Integer> generalOrders = new ArrayList<>();

	void add(String glob, int order) {
		int star = glob.indexOf('*');
		boolean single = star >= 0 && star == glob.lastIndexOf('*') && glob.indexOf('?') < 0;
		if (star < 0 && glob.indexOf('?') < 0) {
			exact.putIfAbsent(glob, order);
		}
		else if (single && star == glob.length() - 1) {
			prefixes.put(glob, 0, glob.length() - 1, false, order);
		}
		else if (single && star == 0) {
			suffixes.put(glob, 1, glob.length(), true, order);
		}
		else {
			generalGlobs.add(glob);
			generalOrders.add(order);
		}
	}

	/** The lowest rule order matching {@code name}, or {@link #NONE}. */
	int firstMatch(String name) {
		Integer exactOrder = exact.get(name);
		int best = exactOrder == null ? NONE : exactOrder;
		best = Math.min(best, prefixes.bestAlong(name, false, best));
		best = Math.min(best, suffixes.bestAlong(name, true, best));
		for (int i = 0; i < generalGlobs.size(); i++) {
			int order = generalOrders.get(i);
			if (order < best && Glob.matches(generalGlobs.get(i), name)) {
				best = order;
			}
		}
		return best;
	}

	/** A character trie; each node keeps the lowest order of a glob ending there. */
	private static final class Trie {
		private char[] keys = new char[0];
		private Trie[] children = new Trie[0];
		private int order = NONE;

		void put(String glob, int from, int to, boolean reversed, int order) {
			Trie node = this;
			for (int i = 0; i < to - from; i++) {
				node = node.child(glob.charAt(reversed ? to - 1 - i : from + i));
			}
			node.order = Math.min(node.order, order);
		}

		int bestAlong(String name, boolean reversed, int best) {
			Trie node = this;
			int n = name.length();
			for (int i = 0; node != null; i++) {
				best = Math.min(best, node.order);
				if (i == n) {
					break;
				}
				node = node.find(name.charAt(reversed ? n - 1 - i : i));
			}
			return best;
		}

		private Trie find(char c) {
			for (int i = 0; i < keys.length; i++) {
				if (keys[i] == c) {
					return children[i];
				}
			}
			return null;
		}

		private Trie child(char c) {
			Trie found = find(c);
			if (found != null) {
				return found;
			}
			keys = java.util.Arrays.copyOf(keys, keys.length + 1);
			children = java.util.Arrays.copyOf(children, children.length + 1);
			keys[keys.length - 1] = c;
			children[children.length - 1] = new Trie();
			return children[children.length - 1];
		}
	}
}
