package dev.fakbattery.engine;

/**
 * What the double claims to be: served model, engine version, context length, start time.
 *
 * @param model served model name
 * @param version engine version reported by {@code /version} and in vLLM's {@code system_fingerprint}
 * @param maxModelLen context length in tokens
 * @param startedEpochSecond {@code created} of the model card
 * @since 0.1
 */
record EngineIdentity(String model, String version, int maxModelLen, long startedEpochSecond) {
}
