package dev.fakbattery.engine;

/**
 * The request's {@code tool_choice}: {@code none}, {@code auto}, {@code required} or a named function.
 *
 * @param mode how tools may be used
 * @param name the forced function for {@link Mode#NAMED}, otherwise null
 * @since 0.1
 */
record ToolChoice(Mode mode, String name) {

	enum Mode {
		NONE, AUTO, REQUIRED, NAMED
	}

	boolean callsTools() {
		return mode != Mode.NONE;
	}
}
