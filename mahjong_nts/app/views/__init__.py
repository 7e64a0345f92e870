"""The app's tabs (hand, settle, evening): each draws state and logic from `mahjong_nts.app`, never another
view."""
