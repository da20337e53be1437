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
