"""Fixtures of the training tests."""
import pytest


@pytest.fixture
def keep_torch_threads():
    """Training sets torch's thread count (``threads``); put it back after the test, so
    later tests run as they would alone. torch is imported here, not at collection: the
    folder also holds tests that do not need it."""
    import torch

    before = torch.get_num_threads()
    yield
    torch.set_num_threads(before)
