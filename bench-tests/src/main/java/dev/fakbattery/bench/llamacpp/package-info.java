/**
 * A real inference engine without a GPU: llama.cpp's {@code llama-server} with a tiny model written here.
 *
 * <p>{@link dev.fakbattery.bench.llamacpp.GgufWriter} and {@link dev.fakbattery.bench.llamacpp.GgufReader} write and
 * read GGUF version 3; {@link dev.fakbattery.bench.llamacpp.TinyLlama} builds a tiny llama-architecture model from a
 * vocab-only GGUF of llama.cpp's source, with random seeded or scripted weights. The package lives in bench-tests
 * because only the real-engine profile ({@code -Pllamacpp}) uses it, to prepare the engine the rungs measure; it
 * needs no JUnit, so it could move to a module of its own if a second user appears.
 *
 * @since 0.2
 */
package dev.fakbattery.bench.llamacpp;
