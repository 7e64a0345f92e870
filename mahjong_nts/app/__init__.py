"""The Streamlit app's logic: state, hand planning, photo reading, settlement, scoreboard, words; the page
and its views (`mahjong_nts.app.views`) draw them. `streamlit_app.py` runs `mahjong_nts.app.page.main`."""
