package dev.fakbattery.api.architecture;

/** Deliberately wrong: a public top-level type without @API, for the self-test of the marking rule. */
public final class UnmarkedApiType {

	private UnmarkedApiType() {
	}
}
