package dev.fakbattery.engine;

import java.util.List;

/**
 * A scripted tool call.
 *
 * @param id the dialect's call id
 * @param name function name
 * @param arguments the non-streamed {@code arguments} string
 * @param fragments the streamed argument fragments; their concatenation is the streamed arguments text
 * @since 0.1
 */
record ToolCall(String id, String name, String arguments, List<String> fragments) {
}
