package dev.fakbattery.core.architecture;

/** Deliberately wrong: a public top-level type without @API, for the self-test of {@link ApiMarkings}. */
public final class UnmarkedPublicType {

	private UnmarkedPublicType() {
	}
}
