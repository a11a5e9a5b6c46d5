//! Matches and round robins (being written).
