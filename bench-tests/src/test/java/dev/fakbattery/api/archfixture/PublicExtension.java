package dev.fakbattery.api.archfixture;

import org.junit.jupiter.api.extension.Extension;

/** A deliberately wrong harness extension for the architecture self-test: it is public. */
public class PublicExtension implements Extension {
}
