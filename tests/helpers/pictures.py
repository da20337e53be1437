"""What a render draws as text: the picture's strings and where, read off Pillow's
``ImageDraw.text`` while a test renders (the pixels alone cannot say which words they spell)."""


def record_drawn_text(monkeypatch, where: bool = False) -> list:
    """From now on in the test, every ``ImageDraw.text`` call is drawn as before and its
    text appended to the returned list (``(xy, text)`` with ``where``)."""
    from PIL import ImageDraw

    drawn: list = []
    real = ImageDraw.ImageDraw.text

    def text(self, xy, words, *args, **kwargs):
        drawn.append((xy, words) if where else words)
        return real(self, xy, words, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    return drawn


def assert_replay_pictures_end_face_up(frames, replayer, seat: int, render_rgb) -> None:
    """The ``turn_*.png`` pictures in ``frames`` of a finished game's ``replay --seat
    --to-png``: the first is ``seat``'s view and not the whole table, the last the whole table
    (``replayer``: the game's ``Replayer`` at its start; stepped to the end here)."""
    import numpy as np
    from PIL import Image

    first = replayer.state.copy()
    while not replayer.done:
        replayer.step()
    pictures = sorted(frames.glob("turn_*.png"))
    with Image.open(pictures[0]) as im:
        assert (np.asarray(im) == render_rgb(first, viewer=seat)).all(), "the first picture: the seat's view"
        assert not (np.asarray(im) == render_rgb(first)).all()
    with Image.open(pictures[-1]) as im:
        assert (np.asarray(im) == render_rgb(replayer.state)).all(), "the last picture: the whole table"
