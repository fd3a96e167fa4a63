"""core.points: facts about a pattern's coordinates."""

from spatial_privacy.core.points import repeated_locations


def test_repeated_locations_counts_points_at_an_earlier_points_location():
    assert repeated_locations([0.0, 1.0, 2.0], [0.0, 1.0, 2.0]) == 0
    # three points at (1, 1): two repeat it; (0, 1) and (1, 0) differ in one coordinate only
    assert repeated_locations([1.0, 1.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0, 0.0]) == 2
    assert repeated_locations([], []) == 0
