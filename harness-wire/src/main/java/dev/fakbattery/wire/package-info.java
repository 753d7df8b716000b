/**
 * The OpenAI-compatible chat wire as vLLM and SGLang write it: thin typed views over Jackson trees that keep every
 * key, null and key order ({@link dev.fakbattery.wire.ChatRequest}, {@link dev.fakbattery.wire.ChatResponse},
 * {@link dev.fakbattery.wire.ChatChunk}), an incremental SSE reader ({@link dev.fakbattery.wire.SseReader})
 * and a streaming tool-call assembler ({@link dev.fakbattery.wire.ToolCallAssembler}).
 *
 * <p>Engine differences the types absorb are listed in {@code fixtures/wire/NOTES.md}; the fixtures they are tested
 * against are described in {@code fixtures/wire/PROVENANCE.md} and {@code fixtures/wire/kit/PROVENANCE.md}.
 *
 * @since 0.1
 */
package dev.fakbattery.wire;
