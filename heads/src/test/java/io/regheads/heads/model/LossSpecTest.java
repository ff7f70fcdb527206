package io.regheads.heads.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The loss grammar, including the NTL word options place, number and all. */
class LossSpecTest {
    @Test
    void parsesTermsWeightsNumbersAndWordOptions() {
        assertEquals("ce", LossSpec.parse("ce").name());
        assertEquals("ce+0.3*ntl-was:place", LossSpec.parse("CE + 0.3*ntl-was:place").name());
        assertEquals("ce+0.1*ntl-mse:number", LossSpec.parse("ce+0.1*ntl-mse:number").name());
        assertEquals("ce+0.3*ntl-was:all", LossSpec.parse("ce+0.3*ntl-was:all").name());
        assertTrue(LossSpec.parse("ce+0.3*ntl-huber:0.5,number").name().contains("ntl-huber(delta=0.5):number"),
                LossSpec.parse("ce+0.3*ntl-huber:0.5,number").name());
        assertTrue(LossSpec.parse("huber:number,0.5").name().contains(":number"));
        assertEquals("ce+0.5*crps", LossSpec.parse("ce + 0.5*CRPS").name());
        assertEquals("pinball+0.5*crps", LossSpec.parse("pinball+0.5*crps").name());
    }

    @Test
    void rejectsWhatItCannotRead() {
        assertThrows(IllegalArgumentException.class, () -> LossSpec.parse("ce:place")); // not an NTL term
        assertThrows(IllegalArgumentException.class, () -> LossSpec.parse("ntl-was:number")); // no number level
        assertThrows(IllegalArgumentException.class, () -> LossSpec.parse("ntl-was:place,all"));
        assertThrows(IllegalArgumentException.class, () -> LossSpec.parse("ntl-was:0.5")); // takes no number
        assertThrows(IllegalArgumentException.class, () -> LossSpec.parse("ntl-was:plce"));
        assertThrows(IllegalArgumentException.class, () -> LossSpec.parse("gce:0.5,0.7"));
        assertThrows(IllegalArgumentException.class, () -> LossSpec.parse("crps:0.5")); // takes no number
        assertThrows(IllegalArgumentException.class, () -> LossSpec.parse("crps:place")); // not an NTL term
    }
}
